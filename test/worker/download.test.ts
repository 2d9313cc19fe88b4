/**
 * Downloads of the code: a paid buyer gets a one-time link, and following it streams GitHub's
 * archive (the newest release announced, else GitHub's latest, else the default branch) through the worker. The link is the
 * buyer's alone, short-lived and good once; the purchase is checked again when it is followed.
 * In workerd with a real D1, against the GitHub stand-in's recorded release and archive answers.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {unzipSync, strFromU8} from 'fflate';
import {ROUTES} from '../../src/config';
import {API_PATHS, type BuyerReleases, type DownloadLink} from '../../src/config/api';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {archiveFiles} from '../../scripts/local/githubArchive';
import {kitArchive} from '../../scripts/local/kitArchive';
import {ROOT} from '../../scripts/support/site';
import {expectedKit, removeKit, unpackKit} from '../support/downloadedKit';
import {completedEvent, disputeEvent, refundEvent, type SignedInUser, startStack, type Stack} from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());
beforeEach(() => {
  stack.github.archives.releases.length = 0;
  stack.github.archives.served.length = 0;
  stack.github.archives.codeloadWithAuthorization = 0;
  stack.github.clearFailures();
});

async function paidBuyer(): Promise<{user: SignedInUser; sessionId: string}> {
  const user = await stack.signUp();
  const sessionId = await stack.paidCheckout({email: user.email, user});
  expect((await stack.deliver(completedEvent(stack, sessionId))).status).toBe(200);
  return {user, sessionId};
}

const askForLink = (user: SignedInUser) => stack.call(API_PATHS.downloadLink, {token: user.idToken, body: {}});
async function linkFor(user: SignedInUser): Promise<DownloadLink> {
  const response = await askForLink(user);
  expect(response.status).toBe(200);
  return (await response.json()) as DownloadLink;
}
/** Follows the link as the browser does: a plain GET, no token, no cookie. */
const follow = (link: DownloadLink) => stack.call(link.path);
/** The row of the newest link: the one the test just made. */
const linkRow = async () =>
  (
    await stack.worker.db.all<Record<string, unknown>>('SELECT * FROM download_links ORDER BY created_at DESC LIMIT 1')
  )[0];
const errorOf = async (response: Response) => (await response.json()) as {error: string; code?: string};

describe('the archive', () => {
  test('with no release, the link downloads the default branch as a real .zip named after the repository', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    expect(link).toMatchObject({ref: stack.github.repository.default_branch, release: false});
    expect(link.path).toMatch(new RegExp(`^${API_PATHS.download}/[A-Za-z0-9_-]{43}$`));
    expect(link.expiresAt - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(link.expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const response = await follow(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${FIXTURE_REPO.replace('/', '-')}-${link.ref}.zip"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const [readme] = Object.entries(files).filter(([name]) => name.endsWith('/README.md'));
    expect(strFromU8(readme![1])).toBe(archiveFiles(FIXTURE_REPO, link.ref)['README.md']);
    expect(stack.github.archives.served).toEqual([link.ref]);
    // The seller's token went to GitHub's API only: not to codeload, not to the browser.
    expect(stack.github.archives.codeloadWithAuthorization).toBe(0);
    expect(response.headers.get('location')).toBeNull();
  });

  test('the latest published release wins over the branch; drafts and pre-releases do not count', async () => {
    stack.github.archives.releases.push(
      {tag: 'v1.0.0'},
      {tag: 'v1.1.0'},
      {tag: 'v2.0.0-beta.1', prerelease: true},
      {tag: 'v2.0.0', draft: true},
    );
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    expect(link).toMatchObject({ref: 'v1.1.0', release: true});
    const response = await follow(link);
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.values(files).map((bytes) => strFromU8(bytes))).toEqual([
      archiveFiles(FIXTURE_REPO, 'v1.1.0')['README.md'],
    ]);
  });

  test('the release the dashboard marks latest (the newest GitHub announced) is the release the link serves', async () => {
    stack.github.archives.releases.push({tag: 'v1.0.0'}, {tag: 'v1.1.0'});
    const now = Date.now();
    // Stored as the release webhook stores an announced release.
    await stack.worker.db.run(
      `INSERT INTO releases (id, delivery_id, tag, name, body, published_at, recipients, created_at) VALUES
       (71, 'delivery-latest-1', 'v1.0.0', 'Version 1.0', '', ?1, 0, ?1), (72, 'delivery-latest-2', 'v1.1.0', 'Version 1.1', '', ?2, 0, ?2)`,
      now - 60_000,
      now,
    );
    try {
      const {user} = await paidBuyer();
      const shown = ((await (await stack.call(API_PATHS.releases, {token: user.idToken})).json()) as BuyerReleases)
        .latestTag;
      expect(shown).toBe('v1.1.0');
      const link = await linkFor(user);
      expect(link).toMatchObject({ref: shown, release: true});
      const files = unzipSync(new Uint8Array(await (await follow(link)).arrayBuffer()));
      expect(Object.values(files).map((bytes) => strFromU8(bytes))).toEqual([
        archiveFiles(FIXTURE_REPO, shown!)['README.md'],
      ]);
    } finally {
      await stack.worker.db.run('DELETE FROM releases WHERE id IN (71, 72)');
    }
  });

  test("a release whose tag is gone from GitHub (deleted or renamed after it was announced): the download serves GitHub's latest instead, and says so in its log", async () => {
    stack.github.archives.releases.push({tag: 'v1.2.0'});
    const now = Date.now();
    await stack.worker.db.run(
      `INSERT INTO releases (id, delivery_id, tag, name, body, published_at, recipients, created_at) VALUES (73, 'delivery-gone-1', 'v9.9.9-gone', 'Gone', '', ?1, 0, ?1)`,
      now,
    );
    try {
      const {user} = await paidBuyer();
      const link = await linkFor(user);
      expect(link).toMatchObject({ref: 'v9.9.9-gone'});
      const response = await follow(link);
      expect(response.status).toBe(200);
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
      expect(Object.values(files).map((bytes) => strFromU8(bytes))).toEqual([
        archiveFiles(FIXTURE_REPO, 'v1.2.0')['README.md'],
      ]);
      expect(await linkRow()).toMatchObject({
        outcome: 'served',
        detail: expect.stringContaining('v9.9.9-gone is gone from GitHub'),
      });
    } finally {
      await stack.worker.db.run('DELETE FROM releases WHERE id = 73');
    }
  });

  test("with local mode's source, the download is this very kit: its files at HEAD, in one folder named after the commit as GitHub names it", async () => {
    stack.github.archives.source = kitArchive(ROOT);
    try {
      const {user} = await paidBuyer();
      const response = await follow(await linkFor(user));
      expect(response.status).toBe(200);
      const kit = unpackKit(new Uint8Array(await response.arrayBuffer()));
      try {
        const expected = expectedKit(FIXTURE_REPO);
        expect(kit.folder).toMatch(expected.folder);
        expect(kit.files).toEqual(expected.files);
      } finally {
        removeKit(kit);
      }
    } finally {
      delete stack.github.archives.source;
    }
  });

  test("with local mode's source in a git repository with no commit yet (`git init` in a downloaded kit), the download is the files git would add, not an error", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-no-commit-'));
    try {
      fs.copyFileSync(path.join(ROOT, '.gitignore'), path.join(dir, '.gitignore'));
      fs.writeFileSync(path.join(dir, 'README.md'), '# The kit, before its first commit\n');
      fs.writeFileSync(path.join(dir, '.env.production'), 'SECRET=not-for-the-buyer\n');
      execFileSync('git', ['init', '--quiet'], {cwd: dir});
      stack.github.archives.source = kitArchive(dir);
      const {user} = await paidBuyer();
      const response = await follow(await linkFor(user));
      expect(response.status).toBe(200);
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
      expect(
        Object.keys(files)
          .map((name) => name.slice(name.indexOf('/') + 1))
          .sort(),
      ).toEqual(['.gitignore', 'README.md']);
    } finally {
      delete stack.github.archives.source;
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });

  test('each download is logged: the link row says who, which purchase, which ref, when and how it ended', async () => {
    const {user, sessionId} = await paidBuyer();
    const link = await linkFor(user);
    expect(await linkRow()).toMatchObject({
      session_id: sessionId,
      user_id: user.uid,
      ref: link.ref,
      used_at: null,
      outcome: null,
    });
    await (await follow(link)).arrayBuffer();
    expect(await linkRow()).toMatchObject({session_id: sessionId, outcome: 'served', used_at: expect.any(Number)});
  });
});

describe('who may download', () => {
  test('signed out: 401; signed in without a paid purchase: 402 NOT_PAID, and no link is made', async () => {
    expect((await stack.call(API_PATHS.downloadLink, {body: {}})).status).toBe(401);
    const stranger = await stack.signUp();
    const before = (await stack.worker.db.all('SELECT token_hash FROM download_links')).length;
    const response = await askForLink(stranger);
    expect(response.status).toBe(402);
    expect(await errorOf(response)).toMatchObject({code: 'NOT_PAID'});
    expect((await stack.worker.db.all('SELECT token_hash FROM download_links')).length).toBe(before);
  });

  test('a link works once: the second use answers 410 LINK_USED, and GitHub is not asked again', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    await (await follow(link)).arrayBuffer();
    const again = await follow(link);
    expect(again.status).toBe(410);
    expect(await errorOf(again)).toMatchObject({code: 'LINK_USED', error: expect.stringContaining('dashboard')});
    expect(stack.github.archives.served).toHaveLength(1);
  });

  test('two clicks at once download once', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    const statuses = (await Promise.all([follow(link), follow(link), follow(link)]))
      .map((response) => response.status)
      .sort();
    expect(statuses).toEqual([200, 410, 410]);
  });

  test('a browser that follows a spent link reads plain words and the way back to the dashboard, not JSON', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    await (await follow(link)).arrayBuffer();
    const page = await stack.call(link.path, {headers: {'sec-fetch-mode': 'navigate', accept: 'text/html'}});
    expect(page.status).toBe(410);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await page.text();
    expect(text).toContain('already used');
    expect(text).toContain(`${ROUTES.dashboard}`);
  });

  test('an expired link answers 410 LINK_EXPIRED', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    await stack.worker.db.run(
      'UPDATE download_links SET expires_at = ?1 WHERE used_at IS NULL AND user_id = ?2',
      Date.now() - 1,
      user.uid,
    );
    const response = await follow(link);
    expect(response.status).toBe(410);
    expect(await errorOf(response)).toMatchObject({code: 'LINK_EXPIRED'});
    expect(stack.github.archives.served).toEqual([]);
  });

  test('a made-up or altered link answers 404, never an archive', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    const altered = {...link, path: link.path.slice(0, -1) + (link.path.endsWith('A') ? 'B' : 'A')};
    expect((await follow(altered)).status).toBe(404);
    expect((await stack.call(`${API_PATHS.download}/x`)).status).toBe(404);
    expect(stack.github.archives.served).toEqual([]);
  });

  test('the database keeps only the hash of the token: the token in the link is nowhere in D1', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    const token = link.path.split('/').pop()!;
    const rows = await stack.worker.db.all<Record<string, unknown>>(
      'SELECT * FROM download_links WHERE user_id = ?1',
      user.uid,
    );
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('refunded between the link and the click: 403 NOT_PAID, no archive', async () => {
    const {user, sessionId} = await paidBuyer();
    const link = await linkFor(user);
    expect((await stack.deliver(refundEvent(stack, sessionId))).status).toBe(200);
    const response = await follow(link);
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({code: 'NOT_PAID'});
    expect(stack.github.archives.served).toEqual([]);
    expect(await linkRow()).toMatchObject({outcome: 'refused'});
    // And no new link either.
    expect((await askForLink(user)).status).toBe(402);
  });

  test('a disputed purchase can no longer download', async () => {
    const {user, sessionId} = await paidBuyer();
    const link = await linkFor(user);
    expect(
      (await stack.deliver(disputeEvent(stack, sessionId, 'charge.dispute.created', 'needs_response'))).status,
    ).toBe(200);
    expect((await follow(link)).status).toBe(403);
    expect((await askForLink(user)).status).toBe(402);
  });

  test('links are rate-limited per buyer: the 11th in an hour answers 429 with Retry-After', async () => {
    const {user} = await paidBuyer();
    for (let i = 0; i < 10; i++) expect((await askForLink(user)).status).toBe(200);
    const refused = await askForLink(user);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('when GitHub fails', () => {
  test('GitHub down while following the link: 503 GITHUB_UNAVAILABLE with Retry-After, logged as failed', async () => {
    const {user} = await paidBuyer();
    const link = await linkFor(user);
    stack.github.failNext(`GET /repos/${FIXTURE_REPO}/zipball`, {status: 502, body: {message: 'Server Error'}});
    const response = await follow(link);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await errorOf(response)).toMatchObject({code: 'GITHUB_UNAVAILABLE'});
    expect(await linkRow()).toMatchObject({outcome: 'failed'});
    // A new link works once GitHub answers.
    expect((await follow(await linkFor(user))).status).toBe(200);
  });

  test("a repository the token cannot read: 503 MISCONFIGURED, a message for the buyer, not GitHub's", async () => {
    const {user} = await paidBuyer();
    stack.github.failNext(`GET /repos/${FIXTURE_REPO}/releases/latest`, {
      status: 403,
      body: {message: 'Resource not accessible by personal access token'},
    });
    const response = await askForLink(user);
    expect(response.status).toBe(503);
    const body = await errorOf(response);
    expect(body.code).toBe('MISCONFIGURED');
    expect(body.error).not.toContain('personal access token');
  });
});

describe('kept and pruned', () => {
  test('the cron prunes links never followed a month after they expired, and keeps every download', async () => {
    const {user} = await paidBuyer();
    const unused = await linkFor(user);
    const used = await linkFor(user);
    await (await follow(used)).arrayBuffer();
    const monthAgo = Date.now() - 31 * 24 * 3600_000;
    await stack.worker.db.run('UPDATE download_links SET expires_at = ?1 WHERE user_id = ?2', monthAgo, user.uid);
    await stack.worker.scheduled();
    const rows = await stack.worker.db.all<Record<string, unknown>>(
      'SELECT outcome FROM download_links WHERE user_id = ?1',
      user.uid,
    );
    expect(rows).toEqual([{outcome: 'served'}]);
    expect(unused.path).not.toBe(used.path);
  });
});
