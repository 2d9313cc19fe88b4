/**
 * @jest-environment node
 *
 * The Mailgun stand-in fills in each recipient's copy as Mailgun does (its user manual: "Batch
 * Sending", "Tracking Unsubscribes"): `%recipient.X%` from `recipient-variables`, and Mailgun's own
 * unsubscribe links, which stop the domain's (or the tag's) later messages to that address. Local
 * mode prints these copies, so what the terminal shows is what the inbox would.
 */
import {type MailgunStandIn, startMailgunStandIn} from '../../scripts/local/mailgunApi';

const DOMAIN = 'mail.example.com';
let mailgun: MailgunStandIn;
beforeEach(async () => {
  mailgun = await startMailgunStandIn();
});
afterEach(() => mailgun.close());

/** POSTs a message as the worker's Mailgun client does (a form); answers Mailgun's status. */
async function send(fields: [string, string][]): Promise<number> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const response = await fetch(`${mailgun.url}/v3/${DOMAIN}/messages`, {method: 'POST', body: form});
  await response.arrayBuffer();
  return response.status;
}

const batch = (text: string, tag = 'release'): [string, string][] => [
  ['from', `news@${DOMAIN}`],
  ['to', 'ada@example.com'],
  ['to', 'bob@example.com'],
  ['subject', 'News for %recipient.name%'],
  ['text', text],
  ['o:tag', tag],
  [
    'recipient-variables',
    JSON.stringify({
      'ada@example.com': {name: 'Ada', unsubscribe: 'https://example.com/unsubscribe?a'},
      'bob@example.com': {name: 'Bob', unsubscribe: 'https://example.com/unsubscribe?b'},
    }),
  ],
];
const textOf = (recipient: string) => mailgun.sent.at(-1)!.copies.find((copy) => copy.recipient === recipient)?.fields;

test("fills in each recipient's own variables, in the subject and the body, and shows each only their address", async () => {
  expect(await send(batch('Hello %recipient.name%. No more: %recipient.unsubscribe%'))).toBe(200);
  expect(textOf('ada@example.com')).toMatchObject({
    to: 'ada@example.com',
    subject: 'News for Ada',
    text: 'Hello Ada. No more: https://example.com/unsubscribe?a',
  });
  expect(textOf('bob@example.com')).toMatchObject({
    to: 'bob@example.com',
    subject: 'News for Bob',
    text: 'Hello Bob. No more: https://example.com/unsubscribe?b',
  });
  expect(JSON.stringify(mailgun.sent.at(-1)!.copies)).not.toMatch(/%recipient|recipient-variables/);
});

test("turns %tag_unsubscribe_url% into the recipient's own link, which stops that tag's messages to them only", async () => {
  await send(batch('Stop these: %tag_unsubscribe_url%'));
  const link = /Stop these: (\S+)$/.exec(textOf('ada@example.com')!.text!)![1]!;
  expect(link).toContain(encodeURIComponent('ada@example.com'));
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(
    'ada@example.com will no longer receive the messages of mail.example.com tagged release.',
  );
  expect(mailgun.unsubscribes).toEqual([{address: 'ada@example.com', domain: DOMAIN, tags: ['release']}]);

  await send(batch('Another release'));
  expect(mailgun.sent.at(-1)!.copies.map((copy) => copy.recipient)).toEqual(['bob@example.com']);
  // Another tag still reaches her.
  await send(batch('A receipt', 'receipt'));
  expect(mailgun.sent.at(-1)!.copies.map((copy) => copy.recipient)).toEqual(['ada@example.com', 'bob@example.com']);
});

test('turns %unsubscribe_url% into a link that stops every message of the domain to that address', async () => {
  await send(batch('Stop all: %unsubscribe_url%'));
  const link = /Stop all: (\S+)$/.exec(textOf('bob@example.com')!.text!)![1]!;
  expect(await (await fetch(link)).text()).toContain(
    'bob@example.com will no longer receive every message of mail.example.com.',
  );
  await send(batch('A receipt', 'receipt'));
  expect(mailgun.sent.at(-1)!.copies.map((copy) => copy.recipient)).toEqual(['ada@example.com']);
});
