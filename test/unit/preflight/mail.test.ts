/**
 * @jest-environment node
 *
 * `npm run preflight`'s mail lines, asked of the Mailgun stand-in: one misconfiguration per test.
 */
import {appConfig} from '../../../src/config';
import {checkMail, mailgunWebhookUrl, SENDING_DOMAIN} from '../../../scripts/preflight/mail';
import {linesOf, type Services, SITE_URL, startServices} from './readyDeploy';

let services: Services;
beforeEach(async () => {
  services = await startServices();
});
afterEach(() => services.close());

const check = (fields: {domain?: string; signingKey?: string} = {}) =>
  checkMail({
    apiKey: 'mailgun-key',
    domain: SENDING_DOMAIN,
    signingKey: 'mailgun-signing-key',
    apiUrl: services.mailgun.url,
    siteUrl: SITE_URL,
    env: 'site',
    ...fields,
  });

it("passes the config's verified sending domain with a route to the worker", async () => {
  const lines = await check();
  expect(lines.map((line) => line.status)).toEqual(['ok', 'ok']);
  expect(lines[1]!.label).toContain(mailgunWebhookUrl(SITE_URL));
});

it('fails a sending domain whose DNS is not verified', async () => {
  services.mailgun.domains.get(SENDING_DOMAIN)!.state = 'unverified';
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`${SENDING_DOMAIN} is unverified`),
      fix: expect.stringContaining('DNS records'),
    }),
  ]);
});

it('fails a domain the account does not have', async () => {
  services.mailgun.domains.clear();
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`${SENDING_DOMAIN} is not a domain of this Mailgun account`),
    }),
  ]);
});

it("fails a MAILGUN_DOMAIN other than the one the config's From addresses use", async () => {
  const other = `news.${appConfig.domainName}`;
  services.mailgun.domains.set(other, {...services.mailgun.domains.get(SENDING_DOMAIN)!, name: other});
  expect(linesOf(await check({domain: other}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`MAILGUN_DOMAIN is ${other}, but the e-mails are from ${SENDING_DOMAIN}`),
    }),
  ]);
});

it("fails when no inbound route forwards to the worker's webhook", async () => {
  services.mailgun.routes[0]!.actions = ['forward("https://old.example.com/api/webhook/mailgun")', 'stop()'];
  expect(linesOf(await check(), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`no inbound route forwards to ${mailgunWebhookUrl(SITE_URL)}`),
      fix: expect.stringContaining(`Forward to ${mailgunWebhookUrl(SITE_URL)}`),
    }),
  ]);
});

it('fails without the webhook signing key', async () => {
  expect(linesOf(await check({signingKey: ''}), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('MAILGUN_WEBHOOK_SIGNING_KEY is not set')}),
  ]);
});
