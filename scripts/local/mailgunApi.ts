/**
 * A stand-in for Mailgun's API (no offline Mailgun exists): records each message as the form
 * fields Mailgun would receive, and can fail the next sends; answers the account's domains and
 * inbound routes as `npm run preflight` reads them. Batch sending as Mailgun's user manual
 * describes it: several `to` fields (at most MAX_RECIPIENTS), and with `recipient-variables` one
 * copy per recipient, its `%recipient.name%` filled in; without them, one copy that every
 * recipient sees all the addresses of. Mailgun's own unsubscribe variables (`%unsubscribe_url%`,
 * `%tag_unsubscribe_url%`: its user manual, "Tracking Unsubscribes") become links to the stand-in,
 * which records the unsubscribe and leaves the address out of the domain's (or the tag's) later
 * messages, as Mailgun does. Mailing lists are not stood in for.
 */
import http from 'node:http';
import {listen} from '../support/listen';
import {escapeHtml, standInPage} from './standInPage';
import type {DomainData, Route} from 'mailgun.js/definitions';

export interface SentMail {
  domain: string;
  /** The form's fields; `to` holds every recipient, joined by ", ". */
  fields: Record<string, string>;
  authorization: string | undefined;
  /** Each `to` address, in order. */
  recipients: string[];
  /** What each recipient receives: the fields with its recipient variables filled in. */
  copies: DeliveredCopy[];
}

export interface DeliveredCopy {
  /** The recipient's address. */
  recipient: string;
  /** The fields of this recipient's copy (`to` is what the copy shows in its To header). */
  fields: Record<string, string>;
}

/**
 * An address that followed one of Mailgun's unsubscribe links: from every message of the domain
 * (`%unsubscribe_url%`), or from those with one of `tags` (`%tag_unsubscribe_url%`).
 */
export interface Unsubscribe {
  address: string;
  domain: string;
  /** The message's tags (`o:tag`) it unsubscribed from; absent: all of the domain's messages. */
  tags?: string[];
}

/** Mailgun's cap on the recipients of one call ("Batch sending", Mailgun's user manual). */
export const MAX_RECIPIENTS = 1000;

/**
 * A sending domain as `GET /v4/domains/{name}` answers it (Mailgun's API reference, Domains), the
 * fields read here, typed by Mailgun's own Node SDK (mailgun.js, a dev dependency for its types
 * only). `state`: `active` once its DNS records are verified; `unverified` or `disabled` otherwise.
 */
export type MailgunDomain = Pick<DomainData, 'name' | 'state' | 'created_at' | 'type'>;

/**
 * An inbound route as `GET /v3/routes` lists it (Mailgun's API reference, Routes), typed by
 * mailgun.js: `expression` e.g. `match_recipient(".*@mail.example.com")`, `actions` e.g.
 * `forward("https://example.com/api/webhook/mailgun")`, `stop()`.
 */
export type MailgunRoute = Route;

/** Mailgun's answer to a refused call (its API reference: every error is `{"message": ...}`). */
export interface MailgunErrorAnswer {
  message: string;
}

/** Mailgun's words when a `to` address is malformed or one it will not send to. */
export const INVALID_ADDRESS_MESSAGE = "'to' parameter is not a valid address. please check documentation";

/** Roughly what Mailgun accepts: `local@domain`, bare or as `Name <local@domain>`, no spaces in it. */
const ADDRESS = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export interface MailgunStandIn {
  url: string;
  sent: SentMail[];
  /**
   * Addresses Mailgun refuses (as it refuses a malformed one): a call with any of them in `to` is
   * answered 400 and sends nothing to anyone, as Mailgun does.
   */
  refused: Set<string>;
  /** The account's domains by name: none at start. */
  domains: Map<string, MailgunDomain>;
  /** The account's inbound routes: none at start. */
  routes: MailgunRoute[];
  /** Who followed an unsubscribe link: left out of the copies of later messages it covers. */
  unsubscribes: Unsubscribe[];
  /** The next `times` messages fail with `status`; with `to`, only the messages (batches) that include that address. */
  failNext(status: number, times?: number, to?: string): void;
  close: () => Promise<void>;
}

export interface MailgunStandInOptions {
  port?: number;
  /** Told of each message, for the terminal. */
  onSend?: (mail: SentMail) => void;
}

export async function startMailgunStandIn({port = 0, onSend}: MailgunStandInOptions = {}): Promise<MailgunStandIn> {
  const sent: SentMail[] = [];
  const domains = new Map<string, MailgunDomain>();
  const routes: MailgunRoute[] = [];
  const refused = new Set<string>();
  const unsubscribes: Unsubscribe[] = [];
  let failures: {status: number; times: number; to?: string} = {status: 0, times: 0};
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://mailgun.local');
    const match = /^\/v3\/([^/]+)\/messages$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === 'GET' && (lookup(url, response) || unsubscribePage(url, response))) return;
    if (request.method !== 'POST' || !match) {
      response.writeHead(404).end();
      return;
    }
    const form = await new Request('http://mailgun.local', {
      method: 'POST',
      headers: {'content-type': request.headers['content-type'] ?? ''},
      body: Buffer.concat(chunks),
    }).formData();
    const fields: Record<string, string> = {};
    form.forEach((value, key) => (fields[key] = String(value)));
    const recipients = form
      .getAll('to')
      .flatMap((value) => String(value).split(','))
      .map((address) => address.trim())
      .filter(Boolean);
    fields.to = recipients.join(', ');
    if (recipients.length > MAX_RECIPIENTS) {
      json(response, 400, {
        message: `Too many recipients: at most ${MAX_RECIPIENTS} per message`,
      } satisfies MailgunErrorAnswer);
      return;
    }
    let variables: Record<string, Record<string, unknown>> | undefined;
    try {
      variables = fields['recipient-variables'] === undefined ? undefined : JSON.parse(fields['recipient-variables']);
    } catch {
      json(response, 400, {
        message: "'recipient-variables' parameter is not a valid JSON",
      } satisfies MailgunErrorAnswer);
      return;
    }
    const bad = recipients.find((address) => !ADDRESS.test(address) || refused.has(address));
    if (bad !== undefined) {
      json(response, 400, {message: INVALID_ADDRESS_MESSAGE} satisfies MailgunErrorAnswer);
      return;
    }
    if (failures.times > 0 && (failures.to === undefined || recipients.includes(failures.to))) {
      failures.times -= 1;
      response.writeHead(failures.status, {'content-type': 'application/json'});
      response.end(JSON.stringify({message: 'Failure'}));
      return;
    }
    const domain = decodeURIComponent(match[1]!);
    const tags = form.getAll('o:tag').map(String);
    const mail = {
      domain,
      fields,
      authorization: request.headers.authorization,
      recipients,
      copies: copiesOf({domain, tags}, fields, recipients, variables),
    };
    sent.push(mail);
    onSend?.(mail);
    response.writeHead(200, {'content-type': 'application/json'});
    response.end(JSON.stringify({id: `<${Date.now()}@mailgun.local>`, message: 'Queued. Thank you.'}));
  });
  /**
   * With recipient variables, one copy per address, `%recipient%` and `%recipient.name%` filled
   * in everywhere (the body, the subject, the `h:` headers); without them, every copy shows all.
   * In each, Mailgun's unsubscribe variables become the recipient's own link. An address that
   * unsubscribed from the domain, or from one of the message's tags, gets no copy.
   */
  function copiesOf(
    message: {domain: string; tags: string[]},
    fields: Record<string, string>,
    recipients: string[],
    variables?: Record<string, Record<string, unknown>>,
  ): DeliveredCopy[] {
    const wanted = recipients.filter((recipient) => !unsubscribed(recipient, message));
    const links = (recipient: string) => (text: string) =>
      text
        .replace(/%unsubscribe_url%/g, unsubscribeLink({address: recipient, domain: message.domain}))
        .replace(
          /%tag_unsubscribe_url%/g,
          unsubscribeLink({address: recipient, domain: message.domain, tags: message.tags}),
        );
    const fillAll = (fill: (text: string) => string, from: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(from)
          .filter(([key]) => key !== 'recipient-variables')
          .map(([key, value]) => [key, fill(value)]),
      );
    if (!variables) return wanted.map((recipient) => ({recipient, fields: fillAll(links(recipient), fields)}));
    return wanted.map((recipient) => {
      const own = variables[recipient] ?? {};
      const fill = (text: string) =>
        links(recipient)(
          text.replace(/%recipient(?:\.([\w-]+))?%/g, (_all, name?: string) =>
            name === undefined ? recipient : String(own[name] ?? ''),
          ),
        );
      return {recipient, fields: {...fillAll(fill, fields), to: recipient}};
    });
  }

  function unsubscribed(address: string, message: {domain: string; tags: string[]}): boolean {
    return unsubscribes.some(
      (entry) =>
        entry.address === address &&
        entry.domain === message.domain &&
        (!entry.tags || entry.tags.some((tag) => message.tags.includes(tag))),
    );
  }

  /** The link Mailgun puts in a copy for `%unsubscribe_url%` (no `tags`) or `%tag_unsubscribe_url%`. */
  function unsubscribeLink({address, domain, tags}: Unsubscribe): string {
    const query = new URLSearchParams({address, domain});
    for (const tag of tags ?? []) query.append('tag', tag);
    return `${running.url}/unsubscribe/${tags ? 'tags' : 'domain'}?${query}`;
  }

  /** Following an unsubscribe link: recorded, and a page that says so; false for any other path. */
  function unsubscribePage(url: URL, response: http.ServerResponse): boolean {
    const kind = /^\/unsubscribe\/(domain|tags)$/.exec(url.pathname)?.[1];
    const address = url.searchParams.get('address');
    const domain = url.searchParams.get('domain');
    if (!kind || !address || !domain) return false;
    const entry: Unsubscribe =
      kind === 'tags' ? {address, domain, tags: url.searchParams.getAll('tag')} : {address, domain};
    unsubscribes.push(entry);
    const from = entry.tags
      ? `the messages of ${domain} tagged ${entry.tags.join(', ') || '(no tag)'}`
      : `every message of ${domain}`;
    response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
    response.end(
      standInPage(
        'Unsubscribed',
        `<p class="local"><strong>Local mode:</strong> this page stands in for Mailgun's unsubscribe page.</p><h1>Unsubscribed</h1><p>${escapeHtml(address)} will no longer receive ${escapeHtml(from)}.</p>`,
      ),
    );
    return true;
  }

  function json(response: http.ServerResponse, status: number, body: unknown) {
    response.writeHead(status, {'content-type': 'application/json'});
    response.end(JSON.stringify(body));
  }

  /** The account's domains and routes, in Mailgun's shapes; false for any other path. */
  function lookup(url: URL, response: http.ServerResponse): boolean {
    const domain = /^\/v4\/domains\/([^/]+)$/.exec(url.pathname);
    if (domain) {
      const found = domains.get(decodeURIComponent(domain[1]!));
      if (found) json(response, 200, {domain: found, receiving_dns_records: [], sending_dns_records: []});
      else json(response, 404, {message: 'Domain not found'});
      return true;
    }
    if (url.pathname === '/v3/routes') {
      json(response, 200, {total_count: routes.length, items: routes});
      return true;
    }
    return false;
  }

  const running = await listen(server, port);
  return {
    url: running.url,
    sent,
    refused,
    domains,
    routes,
    unsubscribes,
    failNext(status, times = 1, to) {
      failures = {status, times, to};
    },
    close: running.close,
  };
}
