/**
 * Mailgun: the sending domain is the config's and is verified, and an inbound route forwards to
 * the worker's webhook. Mailgun's HTTP API with fetch, as the worker sends (worker/src/mail.ts).
 */
import {appConfig} from '../../src/config';
import {API_PATHS} from '../../src/config/api';
import type {MailgunDomain, MailgunRoute} from '../local/mailgunApi';
import {type CheckLine, fail, messageOf, ok, secretPut} from './lines';

export interface MailCheckInput {
  apiKey: string | undefined;
  domain: string | undefined;
  signingKey: string | undefined;
  /** MAILGUN_API_URL, or Mailgun's US API. */
  apiUrl?: string;
  siteUrl: string;
  env: string;
}

const APP = 'https://app.mailgun.com';
/** The domain the config's From addresses are on: mail from any other is refused or spam. */
export const SENDING_DOMAIN = `${appConfig.mail.subdomain}.${appConfig.domainName}`;

export function mailgunWebhookUrl(siteUrl: string): string {
  return new URL(API_PATHS.mailgunWebhook, siteUrl).href;
}

export async function checkMail(input: MailCheckInput): Promise<CheckLine[]> {
  const {apiKey, domain, env} = input;
  const lines: CheckLine[] = [];
  if (!apiKey)
    lines.push(
      fail(
        'Mail: MAILGUN_API_KEY is not set',
        `In Mailgun (${APP}), Settings, API Security: make a key; then ${secretPut('MAILGUN_API_KEY', env)}`,
      ),
    );
  if (!domain)
    lines.push(fail('Mail: MAILGUN_DOMAIN is not set', `${secretPut('MAILGUN_DOMAIN', env)} (${SENDING_DOMAIN})`));
  else if (domain !== SENDING_DOMAIN) {
    lines.push(
      fail(
        `Mail: MAILGUN_DOMAIN is ${domain}, but the e-mails are from ${SENDING_DOMAIN} (src/config)`,
        `${secretPut('MAILGUN_DOMAIN', env)} (${SENDING_DOMAIN}), or change mail.subdomain in src/config/app.ts`,
      ),
    );
  }
  if (!input.signingKey) {
    lines.push(
      fail(
        'Mail: MAILGUN_WEBHOOK_SIGNING_KEY is not set: the worker refuses inbound mail',
        `In Mailgun (${APP}), Settings, API Security: copy the HTTP webhook signing key; then ${secretPut('MAILGUN_WEBHOOK_SIGNING_KEY', env)}`,
      ),
    );
  }
  if (!apiKey || !domain) return lines;
  const base = (input.apiUrl ?? 'https://api.mailgun.net').replace(/\/$/, '');
  const get = async <T>(path: string): Promise<{status: number; body?: T}> => {
    const response = await fetch(`${base}${path}`, {headers: {authorization: `Basic ${btoa(`api:${apiKey}`)}`}});
    return {status: response.status, body: response.ok ? ((await response.json()) as T) : undefined};
  };
  try {
    lines.push(
      domainLine(domain, await get<{domain: MailgunDomain}>(`/v4/domains/${encodeURIComponent(domain)}`), env),
    );
    lines.push(
      routeLine(mailgunWebhookUrl(input.siteUrl), await get<{items: MailgunRoute[]}>('/v3/routes?limit=1000')),
    );
  } catch (error) {
    lines.push(
      fail(
        `Mail: could not reach Mailgun at ${base}: ${messageOf(error)}`,
        'Check MAILGUN_API_URL (https://api.eu.mailgun.net for EU domains)',
      ),
    );
  }
  return lines;
}

function domainLine(domain: string, answer: {status: number; body?: {domain: MailgunDomain}}, env: string): CheckLine {
  if (answer.status === 401 || answer.status === 403)
    return fail(
      `Mail: Mailgun refuses the API key (${answer.status})`,
      `In Mailgun (${APP}), Settings, API Security: make a key; then ${secretPut('MAILGUN_API_KEY', env)}`,
    );
  if (answer.status === 404) {
    return fail(
      `Mail: ${domain} is not a domain of this Mailgun account (or is in the other region)`,
      `In Mailgun (${APP}), Send, Sending, Domains: Add new domain ${domain}; for a domain in the EU region set MAILGUN_API_URL to https://api.eu.mailgun.net`,
    );
  }
  if (!answer.body)
    return fail(
      `Mail: Mailgun answered ${answer.status} for ${domain}`,
      'Try again; https://status.mailgun.com says whether Mailgun is down',
    );
  const {state} = answer.body.domain;
  if (state !== 'active') {
    return fail(
      `Mail: ${domain} is ${state}, not verified: Mailgun will not send from it`,
      `In Mailgun (${APP}), Send, Sending, Domains, ${domain}: add the DNS records it lists at your DNS host, then Verify`,
    );
  }
  return ok(`Mail: ${domain} is verified (active)`);
}

function routeLine(webhookUrl: string, answer: {status: number; body?: {items: MailgunRoute[]}}): CheckLine {
  const create = `In Mailgun (${APP}), Receive, Routes, Create route: Match recipient .*@${SENDING_DOMAIN}, Forward to ${webhookUrl}`;
  if (!answer.body) return fail(`Mail: could not list the inbound routes (${answer.status})`, create);
  const forwards = answer.body.items.some((route) =>
    route.actions.some((action) => forwardTarget(action) === webhookUrl),
  );
  if (!forwards)
    return fail(`Mail: no inbound route forwards to ${webhookUrl}: replies to ${SENDING_DOMAIN} are lost`, create);
  return ok(`Mail: an inbound route forwards to ${webhookUrl}`);
}

/** The URL of a `forward("…")` action, without a trailing slash. */
function forwardTarget(action: string): string | undefined {
  return /^forward\("([^"]+)"\)$/.exec(action.trim())?.[1]?.replace(/\/+$/, '');
}
