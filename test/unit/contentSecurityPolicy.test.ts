/**
 * The Content-Security-Policy generator (src/buildTime/contentSecurityPolicy.ts), the `_headers`
 * file it writes (src/buildTime/headersFile.ts), the plugin that writes it after a build
 * (src/plugins/contentSecurityPolicy.ts) and the forms Vercel and Render take (src/buildTime/hostHeaders.ts).
 * That the built site runs under the policy in a browser is test/browser/contentSecurityPolicy.test.ts.
 */
import {mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {
  contentSecurityPolicyRules,
  readScripts,
  scriptHash,
  type BuiltPageScripts,
  type PolicySettings,
} from '../../src/buildTime/contentSecurityPolicy';
import {headersForPath, parseHeadersFile, renderHeadersFile, type HeaderRule} from '../../src/buildTime/headersFile';
import {hostHeaders, staleHostConfigs} from '../../src/buildTime/hostHeaders';
import {appConfig, isTokenPage, ROUTES, TOKEN_PAGES} from '../../src/config';
import {THIRD_PARTY_SCRIPTS} from '../../src/lib/tracking/thirdParty';
import contentSecurityPolicy from '../../src/plugins/contentSecurityPolicy';
import {siteUrl} from '../../src/seo/siteUrl';

const NO_IDS: PolicySettings = {metaPixelId: '', gaMeasurementId: '', crispWebsiteId: '', auth: {provider: 'supabase'}};
const ALL_IDS: PolicySettings = {
  metaPixelId: '1234567890123456',
  gaMeasurementId: 'G-TEST000001',
  crispWebsiteId: '00000000-0000-4000-8000-000000000001',
  auth: {provider: 'firebase'},
};
const TRACKING_HOSTS = [
  ...THIRD_PARTY_SCRIPTS.metaPixel.hosts,
  ...THIRD_PARTY_SCRIPTS.googleAnalytics.hosts,
  ...THIRD_PARTY_SCRIPTS.crisp.hosts,
];
const SIGN_IN_HOST = THIRD_PARTY_SCRIPTS.firebaseGoogleSignIn.hosts[0];

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const scriptSources = (policy: string) => policy.split('; ')[0]!.split(' ').slice(1);

describe('readScripts', () => {
  it('finds the inline scripts that run, and hashes them as the CSP standard does', () => {
    const html = page(
      "<script>alert('Hello, world.');</script>" +
        '<script type="module">import("/a.js")</script><script type="text/javascript">one()</script>' +
        '<script type="application/ld+json">{"@type":"Product"}</script><script type="text/template"><p>not run</p></script>' +
        '<svg><script>svg()</script></svg><template><script>later()</script></template>' +
        '<script src="/assets/js/main.js" defer></script>',
    );
    const {inline, external} = readScripts(html, 'index.html');
    expect(inline).toEqual(["alert('Hello, world.');", 'import("/a.js")', 'one()', 'svg()', 'later()']);
    expect(external.map((script) => script.src)).toEqual(['/assets/js/main.js']);
    // The example of the CSP standard (Level 3, "hash-source").
    expect(scriptHash(inline[0]!)).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
  });

  it('hashes the text the browser runs: line breaks normalised by the HTML parser', () => {
    const {inline} = readScripts(page('<script>one();\r\ntwo();</script>'), 'index.html');
    expect(inline).toEqual(['one();\ntwo();']);
  });

  it.each([
    [
      'an inline event handler',
      '<img src="/a.png" onload="this.dataset.ready=1">',
      /index\.html: <img onload="…"> is an inline event handler/,
    ],
    ['one in an SVG', '<svg><rect onclick="go()"></rect></svg>', /<rect onclick="…">/],
    ['a javascript: URL', '<a href="javascript:go()">Go</a>', /<a href="javascript:go\(\)…"> is a javascript: URL/],
  ])('stops the build at %s, which no hash can allow', (_name, body, message) => {
    expect(() => readScripts(page(body), 'index.html')).toThrow(message);
  });
});

/** Three pages as the build leaves them: the same theme script everywhere, one more on the landing page. */
function built(extra: Partial<Record<string, string>> = {}): BuiltPageScripts[] {
  const theme = '<script>theme()</script>';
  return [
    {url: ROUTES.home, html: page(`${theme}<script>banner()</script>${extra[ROUTES.home] ?? ''}`)},
    {url: '/docs/features/payments', html: page(`${theme}${extra['/docs/features/payments'] ?? ''}`)},
    ...TOKEN_PAGES.map((url) => ({url, html: page(`${theme}${extra[url] ?? ''}`)})),
  ].map(({url, html}) => ({url, scripts: readScripts(html, url)}));
}

describe('contentSecurityPolicyRules', () => {
  it("allows the site's own scripts and the inline ones by hash, never 'unsafe-inline', and nothing may frame a page", () => {
    const [everywhere, ...tokenRules] = contentSecurityPolicyRules(built(), NO_IDS, siteUrl);
    expect(everywhere!.path).toBe('/*');
    expect(everywhere!.headers['Content-Security-Policy']).toBe(
      `script-src 'self' ${[scriptHash('banner()'), scriptHash('theme()')].sort().join(' ')}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`,
    );
    expect(tokenRules.map((rule) => rule.path)).toEqual([...TOKEN_PAGES]);
    // A page that holds a token is allowed the inline scripts it holds, and no other.
    expect(tokenRules[0]!.headers['Content-Security-Policy']).toBe(
      `script-src 'self' ${scriptHash('theme()')}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`,
    );
  });

  it('with tracking ids: names their hosts for every page but those that hold a token; with Firebase, Google sign-in on all', () => {
    const rules = parseHeadersFile(renderHeadersFile(contentSecurityPolicyRules(built(), ALL_IDS, siteUrl)));
    const policyOf = (url: string) => headersForPath(rules, url)['Content-Security-Policy']!.split(', ');
    expect(policyOf(ROUTES.home)).toHaveLength(1);
    expect(scriptSources(policyOf(ROUTES.home)[0]!)).toEqual(expect.arrayContaining([...TRACKING_HOSTS, SIGN_IN_HOST]));
    for (const route of TOKEN_PAGES) {
      // Cloudflare sends `/*`'s policy and the page's own; the browser runs what both allow.
      const [, own] = policyOf(route);
      expect(scriptSources(own!).filter((source) => source.startsWith('https:'))).toEqual([SIGN_IN_HOST]);
    }
  });

  it('names no tracking host for a service whose id is not set', () => {
    const [everywhere] = contentSecurityPolicyRules(built(), {...NO_IDS, metaPixelId: ALL_IDS.metaPixelId}, siteUrl);
    expect(
      scriptSources(everywhere!.headers['Content-Security-Policy']!).filter((source) => source.startsWith('https:')),
    ).toEqual([...THIRD_PARTY_SCRIPTS.metaPixel.hosts]);
  });

  it('allows where a page loads a script by address from (a `scripts` entry); a page that holds a token must load none', () => {
    const plausible = '<script src="https://api.example.com/plausible/js/script.js" defer></script>';
    const [everywhere] = contentSecurityPolicyRules(built({[ROUTES.home]: plausible}), NO_IDS, siteUrl);
    expect(scriptSources(everywhere!.headers['Content-Security-Policy']!)).toContain('https://api.example.com');
    expect(() => contentSecurityPolicyRules(built({[ROUTES.signIn]: plausible}), NO_IDS, siteUrl)).toThrow(
      `${ROUTES.signIn} holds a token and loads https://api.example.com/plausible/js/script.js`,
    );
  });
});

describe('the _headers file', () => {
  it('reads back what it writes; a path gets every matching rule, a header’s values joined as Cloudflare joins them', () => {
    const rules: HeaderRule[] = [
      {path: '/*', headers: {'X-A': 'one'}},
      {path: '/docs/:page', headers: {'X-B': 'two'}},
      {path: ROUTES.signIn, headers: {'X-A': 'three'}},
    ];
    const parsed = parseHeadersFile(renderHeadersFile(rules, ['a comment']));
    expect(parsed).toEqual(rules);
    expect(headersForPath(parsed, ROUTES.signIn)).toEqual({'X-A': 'one, three'});
    expect(headersForPath(parsed, '/docs/payments')).toEqual({'X-A': 'one', 'X-B': 'two'});
    expect(headersForPath(parsed, '/docs/features/payments')).toEqual({'X-A': 'one'});
    expect(headersForPath(parsed, `${ROUTES.signIn}/more`)).toEqual({'X-A': 'one'});
  });

  it('refuses what Cloudflare would not read: a line over 2,000 characters, more than 100 rules', () => {
    expect(() => renderHeadersFile([{path: '/*', headers: {'Content-Security-Policy': 'x'.repeat(2000)}}])).toThrow(
      /a line of 2027 characters/,
    );
    expect(() =>
      renderHeadersFile(Array.from({length: 101}, (_, index) => ({path: `/${index}`, headers: {}}))),
    ).toThrow(/101 rules/);
  });
});

describe('the plugin after a build', () => {
  let root: string;
  let outDir: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'slipway-csp-'));
    outDir = path.join(root, 'build');
    mkdirSync(path.join(outDir, 'docs'), {recursive: true});
  });
  afterEach(() => rmSync(root, {recursive: true, force: true}));

  /** Writes the pages (path in the build: html), runs the plugin's postBuild, returns its `_headers`. */
  async function build(pages: Record<string, string>): Promise<string> {
    for (const [file, html] of Object.entries(pages)) writeFileSync(path.join(outDir, file), html);
    const plugin = contentSecurityPolicy(ALL_IDS) as Plugin;
    await plugin.postBuild!({outDir, siteDir: root, siteConfig: {url: siteUrl}} as unknown as Parameters<
      NonNullable<Plugin['postBuild']>
    >[0] &
      LoadContext);
    return readFileSync(path.join(outDir, '_headers'), 'utf8');
  }

  it("takes a seller's `scripts` entry out of the pages that hold a token, keeps it on the others, and keeps the site's bundles everywhere", async () => {
    const scriptsEntry = '<script src="/api/plausible/js/script.js" defer data-domain="x"></script>';
    const bundle = '<script src="/assets/js/main.0123.js" defer></script>';
    const html = page(`<script>theme()</script>${scriptsEntry}${bundle}`);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const headers = await build({'index.html': html, 'signin.html': html, 'docs/payments.html': html});
    expect(warn.mock.calls).toEqual([
      [
        expect.stringContaining(
          "Left out of the pages that hold a token (they run only the site's own code): /api/plausible/js/script.js",
        ),
      ],
    ]);
    warn.mockRestore();
    expect(readFileSync(path.join(outDir, 'index.html'), 'utf8')).toBe(html);
    expect(readFileSync(path.join(outDir, 'docs/payments.html'), 'utf8')).toBe(html);
    expect(readFileSync(path.join(outDir, 'signin.html'), 'utf8')).toBe(page(`<script>theme()</script>${bundle}`));
    expect(isTokenPage(ROUTES.signIn)).toBe(true);
    expect(parseHeadersFile(headers).map((rule) => rule.path)).toEqual(['/*', ROUTES.signIn]);
  });

  it('stops the build when vercel.json or render.yaml holds another build’s policy, and shows the one to paste', async () => {
    const pages = {'index.html': page('<script>theme()</script>'), 'signin.html': page('<script>theme()</script>')};
    const rules = parseHeadersFile(await build(pages));
    writeFileSync(path.join(root, 'vercel.json'), hostHeaders('vercel', rules));
    writeFileSync(
      path.join(root, 'render.yaml'),
      `services:\n  - type: web\n    runtime: static\n${hostHeaders('render', rules)}`,
    );
    expect(staleHostConfigs(root, rules)).toEqual([]);
    await expect(build(pages)).resolves.toContain('/signin');

    // A new inline script: its hash is in no host file yet.
    const changed = {...pages, 'index.html': page('<script>theme()</script><script>added()</script>')};
    await expect(build(changed)).rejects.toThrow(
      /vercel\.json sets a Content-Security-Policy that is not this build's[\s\S]*"source": "\/\(\.\*\)"/,
    );
    rmSync(path.join(root, 'vercel.json'));
    await expect(build(changed)).rejects.toThrow(
      /render\.yaml sets a Content-Security-Policy that is not this build's[\s\S]*- path: \/\*/,
    );
  });

  it('leaves alone a vercel.json that sets no policy', async () => {
    writeFileSync(path.join(root, 'vercel.json'), JSON.stringify({cleanUrls: true, trailingSlash: false}));
    await expect(build({'index.html': page(`<p>${appConfig.appName}</p>`)})).resolves.toContain('/*');
  });
});
