/**
 * A stand-in for Mailgun's API (no offline Mailgun exists): records each message as the form
 * fields Mailgun would receive, and can fail the next sends; answers the account's domains and
 * inbound routes as `npm run preflight` reads them. Batch sending as Mailgun's user manual
 * describes it: several `to` fields (at most MAX_RECIPIENTS), and with `recipient-variables` one
 * copy per recipient, its `%recipient.name%` filled in; without them, one copy that every
 * recipient sees all the addresses of.
 */
import http from 'node:http';
import {listen} from '../support/listen';
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
  /** The next `times` messages fail with `status`; with `to`, only the messages (batches) that include that address. */
  failNext(status: number, times?: number, to?: string): void;
  close(): Promise<void>;
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
  let failures: {status: number; times: number; to?: string} = {status: 0, times: 0};
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://mailgun.local');
    const match = /^\/v3\/([^/]+)\/messages$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === 'GET' && lookup(url, response)) return;
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
    const recipients = form.getAll('to').flatMap((value) => String(value).split(',')).map((address) => address.trim()).filter(Boolean);
    fields.to = recipients.join(', ');
    if (recipients.length > MAX_RECIPIENTS) {
      json(response, 400, {message: `Too many recipients: at most ${MAX_RECIPIENTS} per message`} satisfies MailgunErrorAnswer);
      return;
    }
    let variables: Record<string, Record<string, unknown>> | undefined;
    try {
      variables = fields['recipient-variables'] === undefined ? undefined : JSON.parse(fields['recipient-variables']);
    } catch {
      json(response, 400, {message: "'recipient-variables' parameter is not a valid JSON"} satisfies MailgunErrorAnswer);
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
    const mail = {domain: decodeURIComponent(match[1]!), fields, authorization: request.headers.authorization, recipients, copies: copiesOf(fields, recipients, variables)};
    sent.push(mail);
    onSend?.(mail);
    response.writeHead(200, {'content-type': 'application/json'});
    response.end(JSON.stringify({id: `<${Date.now()}@mailgun.local>`, message: 'Queued. Thank you.'}));
  });
  /**
   * With recipient variables, one copy per address, `%recipient%` and `%recipient.name%` filled
   * in everywhere (the body, the subject, the `h:` headers); without them, every copy shows all.
   */
  function copiesOf(fields: Record<string, string>, recipients: string[], variables?: Record<string, Record<string, unknown>>): DeliveredCopy[] {
    if (!variables) return recipients.map((recipient) => ({recipient, fields}));
    return recipients.map((recipient) => {
      const own = variables[recipient] ?? {};
      const fill = (text: string) =>
        text.replace(/%recipient(?:\.([\w-]+))?%/g, (_all, name?: string) => (name === undefined ? recipient : String(own[name] ?? '')));
      const copy = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'recipient-variables').map(([key, value]) => [key, fill(value)]));
      return {recipient, fields: {...copy, to: recipient}};
    });
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
    failNext(status, times = 1, to) {
      failures = {status, times, to};
    },
    close: running.close,
  };
}
