/**
 * A stand-in for Mailgun's messages API (no offline Mailgun exists): records each message as the
 * form fields Mailgun would receive, and can fail the next sends.
 */
import http from 'node:http';
import {listen} from '../support/listen';

export interface SentMail {
  domain: string;
  fields: Record<string, string>;
  authorization: string | undefined;
}

export interface MailgunStandIn {
  url: string;
  sent: SentMail[];
  /** The next `times` messages fail with `status`; with `to`, only the messages to that address. */
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
  let failures: {status: number; times: number; to?: string} = {status: 0, times: 0};
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://mailgun.local');
    const match = /^\/v3\/([^/]+)\/messages$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
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
    if (failures.times > 0 && (failures.to === undefined || fields.to === failures.to)) {
      failures.times -= 1;
      response.writeHead(failures.status, {'content-type': 'application/json'});
      response.end(JSON.stringify({message: 'Failure'}));
      return;
    }
    const mail = {domain: decodeURIComponent(match[1]!), fields, authorization: request.headers.authorization};
    sent.push(mail);
    onSend?.(mail);
    response.writeHead(200, {'content-type': 'application/json'});
    response.end(JSON.stringify({id: `<${Date.now()}@mailgun.local>`, message: 'Queued. Thank you.'}));
  });
  const running = await listen(server, port);
  return {
    url: running.url,
    sent,
    failNext(status, times = 1, to) {
      failures = {status, times, to};
    },
    close: running.close,
  };
}
