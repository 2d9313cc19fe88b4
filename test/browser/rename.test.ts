/**
 * Issue 24's "done" line: a seller who changes the product's name, domain, prices and price ids
 * in src/config, and nothing else, builds a site with no old name or price left in it. The test
 * does exactly that to a copy of the repository, builds it once, and reads every text file of
 * the build (pages, scripts, search index, sitemap, manifest, captions) for the old facts.
 * Pictures and the video are not text: `npm run brand-images` and `npm run demo-video` redraw
 * them from the config (Make it yours says so).
 */
import {readFileSync, rmSync} from 'node:fs';
import path from 'node:path';
import {buildSite, ROOT} from '../../scripts/support/site';
import versions from '../../versions.json';
import {RENAME_ALLOWED} from '../support/renameAllowList';
import {
  currentFacts,
  findLeaks,
  frozenReleaseFiles,
  renamedCopy,
  renamedFacts,
  unexplained,
  type Leak,
} from '../support/renamedSite';

const from = currentFacts();
const to = renamedFacts(from);
let copy: string;
let site: string;

beforeAll(async () => {
  copy = renamedCopy(ROOT, from, to);
  site = path.join(copy, 'build');
  // The bundler's cache lives in the shared node_modules; keep this copy out of it.
  process.env.DOCUSAURUS_NO_PERSISTENT_CACHE = 'true';
  try {
    await buildSite(site, {}, copy);
  } finally {
    delete process.env.DOCUSAURUS_NO_PERSISTENT_CACHE;
  }
}, 20 * 60_000);

afterAll(() => {
  if (copy) rmSync(copy, {recursive: true, force: true});
});

const read = (file: string) => readFileSync(path.join(site, file), 'utf8');

describe('a rename and re-price in src/config alone', () => {
  it('gives the built site the new name, domain, prices and price ids', () => {
    const home = read('index.html');
    expect(home).toMatch(new RegExp(`<title[^>]*>[^<]*${to.appName}</title>`));
    expect(home).toContain(`Get ${to.appName} Free`);
    const product = JSON.parse(/<script[^>]*application\/ld\+json[^>]*>(.*?)<\/script>/s.exec(home)![1]!);
    expect(product).toMatchObject({name: to.appName, url: `https://${to.domainName}/`});
    expect(product.offers.map((offer: {price: string}) => offer.price)).toEqual(
      to.plans.flatMap((plan) =>
        [plan.price, ...(plan.seatPrice ? [plan.seatPrice.price] : [])].map((price) => price.toFixed(2)),
      ),
    );
    expect(read('llms.txt').startsWith(`# ${to.appName}\n`)).toBe(true);
    expect(read('video/demo.en.vtt')).toContain(`${to.appName}: `);
    // The docs quote the config as it is.
    expect(read('docs/features/payments.html')).toContain(to.plans[0]!.priceId.test);
  });

  it('leaves no old name, domain, price or price id in any text file of the build', () => {
    const frozen = frozenReleaseFiles(site, versions);
    // Each frozen version has its pages among them: the scan below skips only what it should.
    for (const version of versions) expect([...frozen].some((file) => file.startsWith(`docs/${version}/`))).toBe(true);
    const {leaks, unused} = unexplained(
      findLeaks(site, from).filter((leak) => !frozen.has(leak.file)),
      RENAME_ALLOWED,
    );
    const report = (leak: Leak) => `${leak.file} (${leak.fact}): …${leak.excerpt}…`;
    expect(leaks.map(report)).toEqual([]);
    expect(unused.map((entry) => `${entry.token}: ${entry.reason}`)).toEqual([]);
  });
});
