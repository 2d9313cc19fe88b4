import {Hono} from 'hono';
import {API_PATHS, type BuyerReleases, findStoredPlan, type ReleaseNote} from '../../../src/config';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {HttpError} from '../errors';
import {readJson} from '../http';
import {releaseEmailsBody} from '../../../src/config/apiSchemas';
import {paidPurchasesOf, type Purchase} from '../purchases';
import {accessSeatOf} from '../access/accessSeat';
import {latestStoredTag} from './latest';
import {notesHtmlOf, type StoredNotes} from './storedNotes';

/** How many releases "What's new" lists: the latest ones. */
const LISTED = 20;

/**
 * The buyer's side of releases, for the dashboard: what is new (only what the buyer's paid plans
 * entitle them to, read from D1 for the signed-in account), and release e-mails on or off again.
 */
export const releaseRoutes = new Hono<AppEnv>()
  .get(API_PATHS.releases, requireUser, async (c) => {
    const user = currentUser(c);
    // A team's member reads the team's purchase (their seat's), never the owner's others.
    const own = await paidPurchasesOf(c.env.DB, user);
    const seat = own.length === 0 ? await accessSeatOf(c.env.DB, user) : null;
    const purchases = own.length > 0 ? own : seat ? [seat.purchase] : await paidOrRefuse(c.env.DB, user);
    const includesUpdates = purchases.some((purchase) => findStoredPlan(purchase.plan)?.includesUpdates);
    // Without updates, the releases up to the latest purchase are what was bought.
    const until = includesUpdates
      ? Number.MAX_SAFE_INTEGER
      : Math.max(...purchases.map((purchase) => purchase.created_at));
    const {results} = await c.env.DB.prepare(
      `SELECT id, tag, name, body, notes_html, notes_renderer, html_url, published_at FROM releases WHERE published_at <= ?1 AND withdrawn_at IS NULL
       ORDER BY published_at DESC, id DESC LIMIT ?2`,
    )
      .bind(until, LISTED)
      .all<StoredNotes & {tag: string; name: string; html_url: string | null; published_at: number}>();
    // Rendered when the release was stored (webhook.ts); only an older release is rendered here.
    const notesHtml = await notesHtmlOf(c.env.DB, results);
    const releases: ReleaseNote[] = results.map((row) => ({
      tag: row.tag,
      name: row.name,
      notesHtml: notesHtml.get(row.id)!,
      url: row.html_url,
      publishedAt: row.published_at,
    }));
    return c.json({
      releases,
      includesUpdates,
      subscribed: await allSubscribed(c.env.DB, addressesOf(purchases)),
      latestTag: await latestStoredTag(c.env.DB),
      ...(seat?.member && {teamOwner: seat.member.owner}),
      // Without updates, what was published since is told too: never "no releases" while there are.
      ...(!includesUpdates && (await laterThan(c.env.DB, until))),
    } satisfies BuyerReleases);
  })
  .post(API_PATHS.releaseEmails, requireUser, async (c) => {
    const {subscribed} = await readJson(c, releaseEmailsBody);
    const user = currentUser(c);
    const emails = addressesOf(await paidOrRefuse(c.env.DB, user));
    // Off: for every address of the buyer's purchases. On again: only for the account's own
    // verified address; one turned off by its own unsubscribe link stays off for anyone else.
    const own =
      user.emailVerified && user.email
        ? emails.filter((email) => email.toLowerCase() === user.email!.toLowerCase())
        : [];
    const statement = subscribed
      ? c.env.DB.prepare('DELETE FROM release_unsubscribes WHERE email IN (SELECT value FROM json_each(?1))').bind(
          JSON.stringify(own),
        )
      : c.env.DB.prepare(
          'INSERT INTO release_unsubscribes (email, created_at) SELECT value, ?2 FROM json_each(?1) WHERE TRUE ON CONFLICT (email) DO NOTHING',
        ).bind(JSON.stringify(emails), Date.now());
    await statement.run();
    return c.json({subscribed: await allSubscribed(c.env.DB, emails)});
  });

/** The releases published after `until` and not withdrawn: how many, and the newest; nothing when none. */
async function laterThan(db: D1Database, until: number): Promise<Pick<BuyerReleases, 'later'>> {
  const row = await db
    .prepare(
      `SELECT tag, name, published_at, COUNT(*) OVER () AS count FROM releases WHERE published_at > ?1 AND withdrawn_at IS NULL
       ORDER BY published_at DESC, id DESC LIMIT 1`,
    )
    .bind(until)
    .first<{tag: string; name: string; published_at: number; count: number}>();
  return row ? {later: {count: row.count, latest: {tag: row.tag, name: row.name, publishedAt: row.published_at}}} : {};
}

/** Whether release e-mails go to every one of these addresses (none of them unsubscribed). */
async function allSubscribed(db: D1Database, emails: string[]): Promise<boolean> {
  const unsubscribed = await db
    .prepare('SELECT COUNT(*) AS count FROM release_unsubscribes WHERE email IN (SELECT value FROM json_each(?1))')
    .bind(JSON.stringify(emails))
    .first<{count: number}>();
  return (unsubscribed?.count ?? 0) === 0;
}

async function paidOrRefuse(db: D1Database, user: Parameters<typeof paidPurchasesOf>[1]): Promise<Purchase[]> {
  const purchases = await paidPurchasesOf(db, user);
  if (purchases.length === 0) throw new HttpError(402, 'No paid purchase was found for this account', 'NOT_PAID');
  return purchases;
}

/** The addresses release e-mails go to: the purchases' own. */
function addressesOf(purchases: Purchase[]): string[] {
  return [...new Set(purchases.map((purchase) => purchase.email).filter((email): email is string => Boolean(email)))];
}
