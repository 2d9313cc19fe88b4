import {readFileSync} from 'node:fs';
import path from 'node:path';
import {appConfig} from '../../src/config';
import {robotsTxt} from '../../src/seo/searchEngineFiles';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import {siteUrl, useBrowser} from './helpers';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): {width: number; height: number} {
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
  return {width: data.readUInt32BE(16), height: data.readUInt32BE(20)};
}

async function fetchBuffer(urlPath: string): Promise<{status: number; type: string | null; body: Buffer}> {
  const response = await fetch(siteUrl(urlPath));
  return {status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer())};
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
    expect(await meta('meta[property="og:image"]')).toBe(`${productionUrl}/img/opengraph-image.png`);
    expect(await meta('meta[property="og:image:width"]')).toBe('1200');
    expect(await meta('meta[property="og:image:height"]')).toBe('660');
    expect(await meta('meta[property="og:url"]')).toBe(`${productionUrl}/`);
    expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(await meta('meta[name="twitter:image"]')).toBe(`${productionUrl}/img/twitter-image.png`);
  });

  it('describes the product in JSON-LD: both offers in USD and a 4.8 rating from 12', async () => {
    const {page} = await browser().open('/');
    const product = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(product['@type']).toBe('Product');
    expect(product.name).toBe(appConfig.appName);
    expect(product.offers.map((offer: {price: string; priceCurrency: string}) => [offer.price, offer.priceCurrency])).toEqual([
      ['69.00', 'USD'],
      ['99.00', 'USD'],
    ]);
    expect(product.aggregateRating).toMatchObject({ratingValue: '4.8', reviewCount: 12});
  });

  it('preloads the logo, the social image and the manifest, and links the icons', async () => {
    const {page} = await browser().open('/');
    const preloads = await page.locator('link[rel="preload"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(preloads).toEqual(expect.arrayContaining(['/img/logo.png', '/img/opengraph-image.png', '/manifest.webmanifest']));
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).toBe('/img/apple-icon.png');
    const manifest = JSON.parse((await fetchBuffer('/manifest.webmanifest')).body.toString('utf8'));
    expect(manifest).toMatchObject({name: appConfig.appName, theme_color: appConfig.themeColor});
  });

  it('serves the logo, icons and 1200x660 social images of §2', async () => {
    const sizes: Record<string, [number, number]> = {
      '/img/logo.png': [512, 512],
      '/img/icon.png': [512, 512],
      '/img/apple-icon.png': [180, 180],
      '/img/opengraph-image.png': [1200, 660],
      '/img/twitter-image.png': [1200, 660],
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

  it('loads images lazily with async decoding unless one says otherwise', async () => {
    const {page} = await browser().open('/');
    const images = await page.locator('main img').evaluateAll((nodes) =>
      nodes.map((node) => ({src: node.getAttribute('src'), loading: node.getAttribute('loading'), decoding: node.getAttribute('decoding')})),
    );
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) expect(image).toEqual({src: image.src, loading: 'lazy', decoding: 'async'});
  });

  it.each(['/error', '/signin', '/admin'])('keeps %s out of search indexes', async (path) => {
    // As a crawler reads it: the served HTML, before any script runs (minified: quotes may go).
    const html = await (await fetch(siteUrl(path))).text();
    expect(html).toMatch(/<meta[^>]*\bname="?robots"?[^>]*\bcontent="noindex, nofollow"/);
  });
});
