/**
 * The docs as built: every promised URL is a page, llms.txt lists them, and
 * a broken link or anchor stops the build.
 */
import {cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {appConfig} from '../../src/config';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import {builtUrls} from '../support/builtPages';
import {DOCS_URLS, NEW_SINCE_1_0} from '../support/docsStructure';
import {buildSite, ROOT} from '../../scripts/support/site';
import {siteUrl} from './helpers';

describe('the built docs', () => {
  const outDir = () => process.env.TEST_SITE_DIR!;

  it('hold a page for every URL of the docs structure', () => {
    const urls = builtUrls(outDir());
    expect(DOCS_URLS.filter((url) => !urls.has(url))).toEqual([]);
  });

  it('hold the released version 1.0 under /docs/1.0, with every page it had', () => {
    const urls = builtUrls(outDir());
    const released = DOCS_URLS.filter((url) => !NEW_SINCE_1_0.includes(url)).map((url) =>
      url.replace(/^\/docs/, '/docs/1.0'),
    );
    expect(released.filter((url) => !urls.has(url))).toEqual([]);
  });

  it.each(DOCS_URLS)('%s is served with its title', async (url) => {
    const response = await fetch(siteUrl(url));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>[^<]+/);
    expect(html).not.toMatch(/>TODO</);
  });

  it("ship each docs version's data without the pages' descriptions (src/plugins/docsVersionSlim)", () => {
    const scripts = path.join(outDir(), 'assets', 'js');
    const versions = readdirSync(scripts)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(scripts, name), 'utf8'))
      .filter((text) => text.includes('"docsSidebars"'));
    // The current version and 1.0, each with its pages' ids and titles.
    expect(versions.length).toBeGreaterThanOrEqual(2);
    for (const text of versions) {
      expect(text.includes('"id":"features/payments","title":')).toBe(true);
      expect(text.match(/"description":"[^"]{0,40}/g) ?? []).toEqual([]);
    }
  });

  it('list every docs page in /llms.txt with its absolute URL', async () => {
    const response = await fetch(siteUrl('/llms.txt'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith(`# ${appConfig.appName}\n`)).toBe(true);
    const listed = [...text.matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map(
      (match) => new URL(match[1]).pathname.replace(/\/$/, '') || '/',
    );
    expect(listed.map((url) => new URL(url, productionUrl).pathname)).toEqual(expect.arrayContaining(DOCS_URLS));
  });
});

describe('the build', () => {
  /**
   * A copy of the site whose docs hold one extra page; everything else is the repository's own but
   * the frozen docs versions, which the link checks do not need: without them the two builds here
   * took 69 core-s against 88 (the median of two runs each way).
   */
  function siteWithExtraPage(markdown: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-links-'));
    // No frozen versions (versions.json lists none), and the docs copied, not linked: Markdown is
    // compiled from where it sits.
    const left = [
      'build',
      '.docusaurus',
      '.test-build',
      '.git',
      'versioned_docs',
      'versioned_sidebars',
      'versions.json',
    ];
    for (const entry of readdirSync(ROOT)) {
      if (left.includes(entry) || entry.startsWith('.docusaurus-')) continue;
      if (entry === 'docs') cpSync(path.join(ROOT, entry), path.join(dir, entry), {recursive: true});
      else symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
    }
    writeFileSync(path.join(dir, 'versions.json'), '[]');
    writeFileSync(path.join(dir, 'docs', 'broken.mdx'), `---\ntitle: Broken\n---\n\n${markdown}\n`);
    return dir;
  }

  it.each([
    ['a link to a page that does not exist', 'See [the missing page](/docs/features/no-such-page).', /no-such-page/],
    [
      'a link to an anchor that does not exist',
      'See [payments](/docs/features/payments#no-such-heading).',
      /no-such-heading/,
    ],
  ])(
    'fails on %s',
    async (_name, markdown, culprit) => {
      const dir = siteWithExtraPage(markdown);
      // The bundler's cache lives in the shared node_modules; keep this copy out of it.
      process.env.DOCUSAURUS_NO_PERSISTENT_CACHE = 'true';
      try {
        const failure = await buildSite(path.join(dir, 'out'), {}, dir).then(
          () => 'the build passed',
          (error: unknown) => String(error),
        );
        expect(failure).toMatch(culprit);
        // The planted page is the only one that Docusaurus names: the copy breaks no other link.
        expect([...failure.matchAll(/source page path = (\S+):/g)].map((match) => match[1])).toEqual(['/docs/broken']);
      } finally {
        delete process.env.DOCUSAURUS_NO_PERSISTENT_CACHE;
        rmSync(dir, {recursive: true, force: true});
      }
    },
    180_000,
  );
});
