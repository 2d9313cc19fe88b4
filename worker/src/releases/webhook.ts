import {verify} from '@octokit/webhooks-methods';
import {Hono} from 'hono';
import {bodyLimit} from 'hono/body-limit';
import {z} from 'zod';
import {appConfig, type ReleaseWebhookResult} from '../../../src/config';
import {unsubscribeBase} from './unsubscribeLink';
import type {AppEnv} from '../app';
import {HttpError} from '../errors';
import {enqueueStatement} from '../jobs';
import {log} from '../log';
import {type Settings, settingsOf} from '../settings';
import {type Audience, audienceOf} from './audience';
import {NOTES_RENDERER, renderNotes} from './notes';
import {batchesOf, batchSpacingMs, type ReleaseBatch} from './releaseMail';

/** GitHub caps a release's notes at 125,000 characters; its payload around them is small. */
const MAX_BODY_BYTES = 1024 * 1024;

/** What is read of GitHub's `release` event (its schema: @octokit/webhooks-types ReleaseEvent). */
const releaseEvent = z.object({
  action: z.string(),
  release: z.object({
    id: z.number().int().positive(),
    tag_name: z.string().min(1).max(255),
    name: z.string().max(1000).nullable(),
    body: z.string().max(200_000).nullable(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    html_url: z.string().nullable().optional(),
    published_at: z.string().nullable(),
  }),
  repository: z.object({full_name: z.string()}),
});
type ReleaseEvent = z.infer<typeof releaseEvent>;

/** The release's page, shown as a link on the dashboard: kept only when it is an https:// address. */
const webPage = (url: string | null | undefined) => (url && /^https:\/\/[^\s"'<>]+$/i.test(url) ? url : null);

/**
 * POST /api/webhook/github: GitHub's `release` webhook. Nothing is read before the
 * `X-Hub-Signature-256` checks out against GITHUB_WEBHOOK_SECRET (with @octokit/webhooks-methods,
 * a constant-time HMAC check); without the secret every delivery is refused. A release that is
 * published, not a draft, not a pre-release, and of the worker's GITHUB_REPO is stored and its
 * e-mails queued in the outbox, one job per batch; anything else is answered 200 and does nothing.
 * Once by `X-GitHub-Delivery` and once by release id: a redelivery sends nothing again.
 */
export const githubWebhook = new Hono<AppEnv>().post('/', bodyLimit({maxSize: MAX_BODY_BYTES}), async (c) => {
  const settings = settingsOf(c.env);
  const secret = settings.GITHUB_WEBHOOK_SECRET;
  if (!secret) throw new HttpError(503, 'GitHub webhooks are not configured (GITHUB_WEBHOOK_SECRET)', 'NOT_CONFIGURED');
  const signature = c.req.header('x-hub-signature-256') ?? '';
  const body = await c.req.text();
  if (!/^sha256=[0-9a-f]{64}$/.test(signature) || body === '') {
    throw new HttpError(401, 'Missing or malformed X-Hub-Signature-256', 'BAD_SIGNATURE');
  }
  if (!(await verify(secret, body, signature)))
    throw new HttpError(401, 'The GitHub signature does not match', 'BAD_SIGNATURE');

  const delivery = c.req.header('x-github-delivery') ?? '';
  if (!/^[\w-]{1,100}$/.test(delivery)) throw new HttpError(400, 'X-GitHub-Delivery is missing or malformed');
  const event = c.req.header('x-github-event') ?? '';
  if (event !== 'release') {
    // `ping` when the webhook is made, or an event the seller ticked by mistake.
    return c.json<ReleaseWebhookResult>({announced: false, reason: `${event || 'An unnamed'} event is not a release`});
  }
  let parsed: ReleaseEvent;
  try {
    parsed = releaseEvent.parse(JSON.parse(body));
  } catch {
    throw new HttpError(400, 'The body is not a release event');
  }
  if (WITHDRAWN.has(parsed.action) && ofBuyersRepository(parsed, settings)) {
    const withdrawn = await withdraw(c.env.DB, parsed.release.id);
    log.info('releases.withdrawn', {delivery, releaseId: parsed.release.id, action: parsed.action, withdrawn});
    return c.json<ReleaseWebhookResult>({
      announced: false,
      reason: `The release was ${parsed.action}: no longer listed, marked latest or downloaded`,
    });
  }
  const skipped = notAnnounced(parsed, settings);
  if (skipped) {
    log.info('releases.not_announced', {delivery, releaseId: parsed.release.id, reason: skipped});
    return c.json<ReleaseWebhookResult>({announced: false, reason: skipped});
  }
  if (!settings.UNSUBSCRIBE_SECRET) {
    // Refused, so that GitHub keeps the delivery for a redelivery once the secret is set.
    throw new HttpError(503, 'Release e-mails need UNSUBSCRIBE_SECRET for their unsubscribe links', 'NOT_CONFIGURED');
  }
  const result = await announce(c.env.DB, settings, parsed, delivery, unsubscribeBase(c.req.url));
  log.info('releases.received', {delivery, releaseId: parsed.release.id, ...result});
  return c.json<ReleaseWebhookResult>(result);
});

/**
 * `published`: a release made public. `released`: a pre-release made a full release, which GitHub
 * announces with this action and not `published` again (its docs, "Webhook events and payloads").
 */
const ANNOUNCED = new Set(['published', 'released']);
/** A release taken back on GitHub: deleted, or made a draft again. */
const WITHDRAWN = new Set(['deleted', 'unpublished']);

const ofBuyersRepository = ({repository}: ReleaseEvent, settings: Settings) =>
  Boolean(settings.GITHUB_REPO) && repository.full_name.toLowerCase() === settings.GITHUB_REPO!.toLowerCase();

/** Why this delivery announces nothing, or null when it does. */
function notAnnounced(event: ReleaseEvent, settings: Settings): string | null {
  const {action, release, repository} = event;
  if (!ANNOUNCED.has(action))
    return `A "${action}" release event is not announced: only "published" and "released" are`;
  if (release.draft) return 'A draft is not announced';
  if (release.prerelease) return 'A pre-release is not announced';
  if (!ofBuyersRepository(event, settings)) {
    return `A release of ${repository.full_name} is not announced: the buyers' repository is ${settings.GITHUB_REPO ?? 'not set (GITHUB_REPO)'}`;
  }
  return null;
}

/** Marks a stored release withdrawn (once; a redelivery changes nothing); false when it was never stored. */
async function withdraw(db: D1Database, releaseId: number): Promise<boolean> {
  const row = await db
    .prepare('UPDATE releases SET withdrawn_at = COALESCE(withdrawn_at, ?2) WHERE id = ?1 RETURNING id')
    .bind(releaseId, Date.now())
    .first();
  return row !== null;
}

const AUDIENCES: Audience[] =
  appConfig.releases.noticeWithoutUpdates === 'upgrade-note' ? ['updates', 'upgrade'] : ['updates'];

/** The release's e-mail batches for every audience, to its buyers but those in `skip`. */
async function releaseBatches(
  db: D1Database,
  settings: Settings,
  releaseId: number,
  unsubscribeUrl: string,
  keyPrefix: string,
  skip = new Set<string>(),
) {
  const batches: ReleaseBatch[] = [];
  for (const audience of AUDIENCES) {
    const emails = (await audienceOf(db, audience)).filter((email) => !skip.has(email));
    batches.push(...batchesOf(settings, {releaseId, audience, emails, unsubscribeUrl, keyPrefix}));
  }
  return {batches, recipients: batches.reduce((sum, batch) => sum + batch.recipients.length, 0)};
}

/**
 * Stores the release and queues its batches, in one D1 batch; nothing when it was seen before,
 * unless it was withdrawn since (made a draft and published again, a new delivery): republish.
 */
async function announce(
  db: D1Database,
  settings: Settings,
  {release}: ReleaseEvent,
  delivery: string,
  unsubscribeUrl: string,
): Promise<ReleaseWebhookResult> {
  const seen = await db
    .prepare('SELECT id, delivery_id, withdrawn_at FROM releases WHERE id = ?1 OR delivery_id = ?2')
    .bind(release.id, delivery)
    .first<{id: number; delivery_id: string; withdrawn_at: number | null}>();
  if (seen && seen.id === release.id && seen.withdrawn_at !== null && seen.delivery_id !== delivery) {
    return republish(db, settings, release.id, seen.withdrawn_at, unsubscribeUrl);
  }
  if (seen) return {announced: false, reason: 'This release was announced already'};

  // Keyed by release, audience and batch: a concurrent delivery of the same release queues nothing twice.
  const {batches, recipients} = await releaseBatches(
    db,
    settings,
    release.id,
    unsubscribeUrl,
    `release:${release.id}:`,
  );
  const now = Date.now();
  const publishedAt = Date.parse(release.published_at ?? '') || now;
  await db.batch([
    db
      .prepare(
        `INSERT INTO releases (id, delivery_id, tag, name, body, notes_html, notes_renderer, html_url, published_at, recipients, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT DO NOTHING`,
      )
      .bind(
        release.id,
        delivery,
        release.tag_name,
        release.name?.trim() || release.tag_name,
        release.body ?? '',
        // Rendered once, here: the dashboard serves this HTML as stored (storedNotes.ts).
        renderNotes(release.body ?? ''),
        NOTES_RENDERER,
        webPage(release.html_url),
        publishedAt,
        recipients,
        now,
      ),
    ...batches.map((batch, index) =>
      enqueueStatement(
        db,
        {key: batch.key!, kind: 'release-mail', payload: batch, runAfter: now + index * batchSpacingMs()},
        now,
      ),
    ),
  ]);
  return {announced: true, recipients};
}

/**
 * A release made a draft on GitHub (withdrawn) and published again: listed, marked latest and
 * downloaded again, and e-mailed to the buyers who have not had it (their batches were dropped
 * while it was withdrawn, or they bought since). Who had it keeps one e-mail. Keyed by the
 * withdrawal it undoes: two deliveries of the same republish queue nothing twice.
 */
async function republish(
  db: D1Database,
  settings: Settings,
  releaseId: number,
  withdrawnAt: number,
  unsubscribeUrl: string,
): Promise<ReleaseWebhookResult> {
  // E-mailed already, or in a batch still waiting (it sends now that the release is back).
  const had = await db
    .prepare(
      `SELECT email FROM release_deliveries WHERE release_id = ?1
       UNION SELECT e.value FROM jobs j, json_each(j.payload, '$.recipients') e
       WHERE j.kind = 'release-mail' AND j.status = 'pending' AND j.key LIKE 'release:' || ?1 || ':%'`,
    )
    .bind(releaseId)
    .all<{email: string}>();
  const skip = new Set(had.results.map((row) => row.email));
  const {batches, recipients} = await releaseBatches(
    db,
    settings,
    releaseId,
    unsubscribeUrl,
    `release:${releaseId}:again:${withdrawnAt}:`,
    skip,
  );
  const now = Date.now();
  await db.batch([
    db
      .prepare('UPDATE releases SET withdrawn_at = NULL WHERE id = ?1 AND withdrawn_at = ?2')
      .bind(releaseId, withdrawnAt),
    ...batches.map((batch, index) =>
      enqueueStatement(
        db,
        {key: batch.key!, kind: 'release-mail', payload: batch, runAfter: now + index * batchSpacingMs()},
        now,
      ),
    ),
  ]);
  log.info('releases.republished', {releaseId, recipients});
  return {announced: true, recipients};
}
