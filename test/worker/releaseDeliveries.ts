/**
 * What the release suites share: GitHub's own recorded `release` deliveries
 * (@octokit/webhooks-examples), made the seller's and signed as GitHub signs them, and buyers
 * seeded straight into D1 as fulfilment records them.
 */
import {createHmac} from 'node:crypto';
import examples from '@octokit/webhooks-examples';
import type {ReleaseEvent} from '@octokit/webhooks-types';
import {API_PATHS, type Plan, PLAN_CURRENCY} from '../../src/config';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import type {Stack} from './stack';

export const RELEASE_WEBHOOK_SECRET = 'github-webhook-secret-for-the-release-suite';
/** The worker's settings release e-mails need: the webhook's secret and the unsubscribe links' one. */
export const RELEASE_VARS = {
  GITHUB_WEBHOOK_SECRET: RELEASE_WEBHOOK_SECRET,
  UNSUBSCRIBE_SECRET: 'unsubscribe-secret-for-the-release-suite',
};

const recorded = examples.find((definition) => definition.name === 'release')!.examples as ReleaseEvent[];

let releases = 0;
/**
 * One of GitHub's recorded deliveries of `action`, made the seller's: of the worker's repository,
 * with its own release id (each test its own release), and the notes and flags given.
 */
export function releaseEvent(
  action: ReleaseEvent['action'],
  release: Partial<ReleaseEvent['release']> = {},
): ReleaseEvent {
  const example = structuredClone(recorded.find((candidate) => candidate.action === action)!);
  example.repository.full_name = FIXTURE_REPO;
  Object.assign(
    example.release,
    {id: 90_000_000 + ++releases, tag_name: `v1.${releases}.0`, name: `Version 1.${releases}`},
    release,
  );
  return example;
}

export interface DeliveryOptions {
  secret?: string;
  delivery?: string;
  /** The body as sent, when not the event's JSON. */
  body?: string;
  /** The `X-Hub-Signature-256` header as sent; null leaves it out. Signed with `secret` unless given. */
  signature?: string | null;
}

let deliveries = 0;
/** GitHub's delivery of `event` to the worker of `to`: its headers, and the body signed as GitHub signs it. */
export function deliverRelease(
  to: Stack,
  event: unknown,
  {
    secret = RELEASE_WEBHOOK_SECRET,
    delivery = `delivery-${++deliveries}-${Date.now()}`,
    body,
    signature,
  }: DeliveryOptions = {},
) {
  const payload = body ?? JSON.stringify(event);
  const signed =
    signature === undefined ? `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}` : signature;
  return to.worker.fetch(API_PATHS.githubWebhook, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'release',
      'x-github-delivery': delivery,
      ...(signed !== null && {'x-hub-signature-256': signed}),
    },
    body: payload,
  });
}

/**
 * `count` paid purchases of `plan`, seeded in one statement, their addresses
 * `<label>-0001@example.com` onwards; answers the addresses in that order.
 */
export async function seedBuyers(
  stack: Stack,
  {plan, count, label}: {plan: Plan; count: number; label: string},
): Promise<string[]> {
  const now = Date.now();
  await stack.worker.db.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?4)
     INSERT INTO purchases (session_id, email, plan, status, created_at, updated_at, amount_total, currency)
     SELECT 'cs_test_' || ?5 || '_' || i, ?5 || '-' || printf('%04d', i) || '@example.com', ?1, 'paid', ?2, ?2, ?3, '${PLAN_CURRENCY}' FROM n`,
    plan.id,
    now,
    plan.price * 100,
    count,
    label,
  );
  return Array.from({length: count}, (_, index) => `${label}-${String(index + 1).padStart(4, '0')}@example.com`);
}
