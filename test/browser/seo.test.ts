import {readFileSync} from 'node:fs';
import path from 'node:path';
import {appConfig, type AppConfig, type Plan} from '../../src/config';
import {aggregateRating} from '../../src/seo/structuredData';
import {robotsTxt} from '../../src/seo/searchEngineFiles';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import {builtPages} from '../support/builtPages';
import {siteUrl, useBrowser} from './helpers';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): {width: number; height: number} {
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
  return {width: data.readUInt32BE(16), height: data.readUInt32BE(20)};
}

async function fetchBuffer(urlPath: string): Promise<{status: number; type: string | null; body: Buffer}> {
  const response = await fetch(siteUrl(urlPath));
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

describe('search engines and sharing', () => {
  const browser = useBrowser();

  it('serves robots.txt that keeps crawlers out of /dashboard/ and /admin/, with a crawl delay and the sitemap', async () => {
    const robots = (await fetchBuffer('/robots.txt')).body.toString('utf8');
    expect(robots).toBe(robotsTxt());
    expect(robots).toMatch(/^Disallow: \/dashboard\/$/m);
    expect(robots).toMatch(/^Disallow: \/admin\/$/m);
    expect(robots).toMatch(/^Crawl-delay: 1$/m);
    expect(robots).toMatch(new RegExp(`^Sitemap: ${productionUrl}/sitemap.xml$`, 'm'));
  });

  it('lists the public pages in sitemap.xml with the priorities of §9', () => {
    const xml = readFileSync(path.join(process.env.TEST_SITE_DIR!, 'sitemap.xml'), 'utf8');
    const entries = Object.fromEntries(
      [...xml.matchAll(/<url><loc>([^<]+)<\/loc>.*?<priority>([^<]+)<\/priority><\/url>/g)].map((match) => [
        match[1].replace(productionUrl, ''),
        Number(match[2]),
      ]),
    );
    expect(entries).toMatchObject({'/': 1, '/dashboard': 0.8, '/success': 0.5, '/tos': 0.3, '/privacy-policy': 0.3});
    for (const hidden of ['/error', '/signin', '/admin']) expect(entries).not.toHaveProperty(hidden);
  });

  it('gives the landing page its title, description, canonical URL, Open Graph and Twitter cards', async () => {
    const {page} = await browser().open('/');
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await page.title()).toContain(appConfig.appName);
    expect(await meta('meta[name="description"]')).toBe(appConfig.appDescription);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${productionUrl}/`);
    expect(await meta('meta[property="og:image"]')).toBe(`${productionUrl}/img/opengraph-image.jpg`);
    expect(await meta('meta[property="og:image:width"]')).toBe('1200');
    expect(await meta('meta[property="og:image:height"]')).toBe('660');
    expect(await meta('meta[property="og:url"]')).toBe(`${productionUrl}/`);
    expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(await meta('meta[name="twitter:image"]')).toBe(`${productionUrl}/img/twitter-image.jpg`);
  });

  it("describes the product in JSON-LD: each plan's offer in USD, and the seller's own rating or none", async () => {
    const {page} = await browser().open('/');
    const product = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(product['@type']).toBe('Product');
    expect(product.name).toBe(appConfig.appName);
    expect(
      product.offers.map((offer: {price: string; priceCurrency: string}) => [offer.price, offer.priceCurrency]),
    ).toEqual(
      // A team's own price for each seat is an offer of its own, after its plan's.
      (appConfig.plans as readonly Plan[]).flatMap((plan) =>
        [plan.price, ...(plan.team?.seatPrice ? [plan.team.seatPrice.price] : [])].map((price) => [
          price.toFixed(2),
          'USD',
        ]),
      ),
    );
    expect(product.aggregateRating).toEqual(aggregateRating((appConfig as AppConfig).rating));
  });

  it('preloads the logo, the social image and the manifest, and links the icons', async () => {
    const {page} = await browser().open('/');
    const preloads = await page
      .locator('link[rel="preload"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(preloads).toEqual(
      expect.arrayContaining(['/img/logo.png', '/img/opengraph-image.jpg', '/manifest.webmanifest']),
    );
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).toBe('/img/apple-icon.png');
    const manifest = JSON.parse((await fetchBuffer('/manifest.webmanifest')).body.toString('utf8'));
    expect(manifest).toMatchObject({name: appConfig.appName, theme_color: appConfig.themeColor});
  });

  it('serves the logo and icons of §2', async () => {
    const sizes: Record<string, [number, number]> = {
      '/img/logo.png': [512, 512],
      '/img/icon.png': [512, 512],
      '/img/apple-icon.png': [180, 180],
    };
    for (const [file, [width, height]] of Object.entries(sizes)) {
      const {status, body} = await fetchBuffer(file);
      expect({file, status, ...pngSize(body)}).toEqual({file, status: 200, width, height});
    }
    const logoAndName = await fetchBuffer('/img/logoAndName.png');
    expect(pngSize(logoAndName.body).width).toBeGreaterThan(pngSize(logoAndName.body).height);
    const favicon = await fetchBuffer('/favicon.ico');
    expect(favicon.status).toBe(200);
    expect([...favicon.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it.each(['/', '/docs/features/payments'])(
    'names 1200x660 social images on %s that networks accept and that stay light to preload (≤ 60 KB)',
    async (path) => {
      const {page} = await browser().open(path);
      const urls = await page
        .locator('meta[property="og:image"], meta[name="twitter:image"]')
        .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('content')!));
      expect(urls).toHaveLength(2);
      for (const url of urls) {
        expect(url.startsWith(`${productionUrl}/`)).toBe(true);
        const file = url.slice(productionUrl.length);
        const {status, type, body} = await fetchBuffer(file);
        expect({file, status, type}).toEqual({file, status: 200, type: expect.stringMatching(/^image\/(jpeg|png)$/)});
        expect(body.length).toBeLessThanOrEqual(60 * 1024);
        const size = await page.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return [image.naturalWidth, image.naturalHeight];
        }, file);
        expect({file, size}).toEqual({file, size: [1200, 660]});
      }
    },
  );

  it('loads images lazily with async decoding unless one says otherwise (the demo poster, the first thing painted)', async () => {
    const {page} = await browser().open('/');
    const images = await page.locator('main img').evaluateAll((nodes) =>
      nodes.map((node) => ({
        src: node.getAttribute('src'),
        loading: node.getAttribute('loading'),
        decoding: node.getAttribute('decoding'),
        fetchpriority: node.getAttribute('fetchpriority'),
      })),
    );
    expect(images.length).toBeGreaterThanOrEqual(6);
    const isPoster = (image: {src: string | null}) => /^\/img\/demo-poster-/.test(image.src ?? '');
    const [poster, ...rest] = images.filter(isPoster);
    expect(rest).toEqual([]);
    const others = images.filter((image) => !isPoster(image));
    expect(poster).toEqual({
      src: expect.stringMatching(/^\/img\/demo-poster-\d+\.webp$/),
      loading: 'eager',
      decoding: 'async',
      fetchpriority: 'high',
    });
    for (const image of others)
      expect(image).toEqual({src: image.src, loading: 'lazy', decoding: 'async', fetchpriority: null});
  });

  it('gives every built page a description, which search engines show under its title', () => {
    // As a crawler reads it: the served HTML, before any script runs (minified: quotes may go).
    const descriptions = builtPages(process.env.TEST_SITE_DIR!).map(({file, url}) => {
      const tag = /<meta\b[^>]*\bname="?description"?[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? '';
      return {url, description: /\bcontent="([^"]*)"/.exec(tag)?.[1]?.trim() ?? ''};
    });
    expect(descriptions.filter(({description}) => description.length < 20)).toEqual([]);
    expect(descriptions.length).toBeGreaterThan(50);
  });

  it.each(['/error', '/signin', '/admin'])('keeps %s out of search indexes', async (path) => {
    // As a crawler reads it: the served HTML, before any script runs (minified: quotes may go).
    const html = await (await fetch(siteUrl(path))).text();
    expect(html).toMatch(/<meta[^>]*\bname="?robots"?[^>]*\bcontent="noindex, nofollow"/);
  });
});
