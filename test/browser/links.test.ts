/**
 * Every link of the built site leads somewhere: the custom pages, the navbar and the footer too,
 * not only the docs that Docusaurus's own broken-link check reads.
 */
import {readFileSync} from 'node:fs';
import type {Browser} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import {builtFiles, builtPages} from '../support/builtPages';
import {brokenLinks, type PageLinks} from '../support/siteLinks';
import {siteUrl} from './helpers';

describe('links in the built site', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium({offline: true});
  });
  afterAll(() => browser?.close());

  it('lead to a built page or file, and each #fragment to an element on that page', async () => {
    const dir = process.env.TEST_SITE_DIR!;
    const pages = builtPages(dir);
    // Chromium's own parser reads each file once, as a visitor's browser would, without running it.
    const page = await browser.newPage();
    const links: PageLinks[] = [];
    for (const {file, url} of pages) {
      const read = await page.evaluate((html) => {
        const document = new DOMParser().parseFromString(html, 'text/html');
        return {
          hrefs: [...document.querySelectorAll('[href]')].map((element) => element.getAttribute('href')!),
          anchors: [...document.querySelectorAll('[id], a[name]')].map((element) => element.id || element.getAttribute('name')!),
        };
      }, readFileSync(file, 'utf8'));
      links.push({url, ...read});
    }
    // Enough links were read that an empty result means something.
    expect(links.find((links) => links.url === '/')!.hrefs).toContain('/tos');
    expect(links.find((links) => links.url === '/docs/features/payments')!.anchors.length).toBeGreaterThan(5);

    const broken = brokenLinks(links, new Set(builtFiles(dir)), [productionUrl, new URL(siteUrl()).origin]);
    expect(broken).toEqual([]);
  });
});
