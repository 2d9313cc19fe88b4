import {mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {DEMO_CAPTIONS} from '../../src/components/landing/Hero/demoCaptions';
import {appConfig, landing, type Plan, planForTeams} from '../../src/config';
import {DOCS_PRIORITY, robotsTxt, sitemapPriority, webManifest} from '../../src/seo/searchEngineFiles';
import {productJsonLd} from '../../src/seo/structuredData';
import {siteUrl} from '../../src/seo/siteUrl';
import {writeStaticFiles} from '../../src/seo/writeStaticFiles';

describe('robots.txt', () => {
  it('disallows /dashboard/ and /admin/, sets a crawl delay of 1 and names the sitemap', () => {
    expect(robotsTxt('https://example.com').split('\n')).toEqual([
      'User-agent: *',
      'Allow: /',
      'Disallow: /dashboard/',
      'Disallow: /admin/',
      'Crawl-delay: 1',
      '',
      'Sitemap: https://example.com/sitemap.xml',
      '',
    ]);
  });

  it('uses the configured domain by default', () => {
    expect(robotsTxt()).toContain(`Sitemap: https://${appConfig.domainName}/sitemap.xml`);
  });
});

describe('sitemap priorities', () => {
  it.each([
    ['/', 1.0],
    ['/dashboard', 0.8],
    ['/success', 0.5],
    ['/tos', 0.3],
    ['/privacy-policy', 0.3],
    ['/privacy-policy/', 0.3],
    ['/docs', DOCS_PRIORITY],
    ['/docs/features/seo', DOCS_PRIORITY],
  ])('gives %s %d', (pathname, priority) => {
    expect(sitemapPriority(`${siteUrl}${pathname}`)).toBe(priority);
  });

  it.each(['/error', '/signin', '/admin', '/docsearch', '/somewhere'])('leaves %s out', (pathname) => {
    expect(sitemapPriority(`${siteUrl}${pathname}`)).toBeNull();
  });
});

describe('the manifest and structured data', () => {
  it('names the app and its theme colour in the manifest', () => {
    expect(webManifest()).toMatchObject({name: appConfig.appName, theme_color: appConfig.themeColor, start_url: '/'});
  });

  it('describes the product with an offer for each plan, at the price the config gives, and a team price as an offer of its own', () => {
    const plans = appConfig.plans as readonly Plan[];
    const product = productJsonLd();
    const seats = (minValue: number, maxValue: number) => ({
      '@type': 'QuantitativeValue',
      minValue,
      maxValue,
      unitText: 'seat',
    });
    // A plan sold for teams at a price of their own: one seat at the plan's price, 2 or more at the team's.
    expect(
      product.offers.map(({name, price, eligibleQuantity}) => ({name, price, seats: eligibleQuantity ?? null})),
    ).toEqual(
      plans.flatMap((plan) => [
        {name: plan.name, price: plan.price.toFixed(2), seats: null},
        ...(plan.team?.seatPrice
          ? [
              {
                name: planForTeams(plan.name),
                price: plan.team.seatPrice.price.toFixed(2),
                seats: seats(2, plan.team.maxSeats),
              },
            ]
          : []),
      ]),
    );
    expect(product.offers.filter((offer) => offer.eligibleQuantity)).toHaveLength(1);
    // Sold for teams at the plan's price: one offer, for 1 seat up to the most.
    const atPlanPrice = plans.map((plan) => (plan.team ? {...plan, team: {maxSeats: plan.team.maxSeats}} : plan));
    const {offers} = productJsonLd(undefined, atPlanPrice);
    expect(offers).toHaveLength(plans.length);
    const [, advanced] = offers;
    expect(advanced).toMatchObject({
      price: plans[1]!.price.toFixed(2),
      eligibleQuantity: seats(1, plans[1]!.team!.maxSeats),
    });
  });

  it("gives the seller's own rating with its count", () => {
    expect(productJsonLd({value: 4.6, count: 31})).toMatchObject({
      aggregateRating: {'@type': 'AggregateRating', ratingValue: '4.6', bestRating: '5', ratingCount: 31},
    });
  });

  it('claims no rating at all when the seller has none', () => {
    expect(productJsonLd(undefined)).not.toHaveProperty('aggregateRating');
    expect(JSON.stringify(productJsonLd(undefined))).not.toMatch(/rating/i);
  });
});

describe('the generated static files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-static-'));
  });
  afterEach(() => rmSync(dir, {recursive: true, force: true}));

  it('writes robots.txt and the manifest from the config', () => {
    writeStaticFiles(dir);
    expect(readFileSync(path.join(dir, 'robots.txt'), 'utf8')).toBe(robotsTxt());
    expect(JSON.parse(readFileSync(path.join(dir, 'manifest.webmanifest'), 'utf8'))).toEqual(webManifest());
  });

  it("writes the demo video's captions from the config, one cue a scene, the first naming the product", () => {
    writeStaticFiles(dir);
    const vtt = readFileSync(path.join(dir, landing.hero.demoVideo.captions), 'utf8');
    expect(vtt).toMatch(new RegExp(`^WEBVTT\n\n00:00:00\\.000 --> 00:00:03\\.000\n${appConfig.appName}: `));
    expect(vtt.match(/ --> /g)).toHaveLength(DEMO_CAPTIONS.length);
    expect(vtt).toContain(`00:00:03.000 --> 00:00:06.000\n${DEMO_CAPTIONS[1]}\n`);
  });

  // `docusaurus start` recompiles whenever a file in a static folder is written, even with the same bytes.
  it('leaves files that are already up to date untouched, and mends one that is not', () => {
    writeStaticFiles(dir);
    const robots = path.join(dir, 'robots.txt');
    const manifest = path.join(dir, 'manifest.webmanifest');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(robots, past, past);
    utimesSync(manifest, past, past);
    writeFileSync(robots, 'stale');
    utimesSync(robots, past, past);

    writeStaticFiles(dir);
    expect(statSync(manifest).mtime).toEqual(past);
    expect(readFileSync(robots, 'utf8')).toBe(robotsTxt());
    expect(statSync(robots).mtime).not.toEqual(past);
  });
});
