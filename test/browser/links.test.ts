/**
 * Every built page, read once with Chromium's parser: every link of the built site leads
 * somewhere (the custom pages, the navbar and the footer too, not only the docs that Docusaurus's
 * own broken-link check reads), and no page shows an MDX expression as written (issue 38).
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {Browser} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import {builtFiles, builtPages} from '../support/builtPages';
import {brokenLinks, type PageLinks} from '../support/siteLinks';
import {mdxScopeNames, unrenderedExpressions, type PageText} from '../support/unrenderedExpressions';
import {siteUrl} from './helpers';

const ROOT = path.join(__dirname, '../..');

/** Every MDX source the site builds pages from: the docs of every version, and the legal pages. */
function mdxSources(): string[] {
  return ['docs', 'versioned_docs', 'src/pages'].flatMap((dir) =>
    (readdirSync(path.join(ROOT, dir), {recursive: true}) as string[])
      .filter((file) => file.endsWith('.mdx'))
      .map((file) => readFileSync(path.join(ROOT, dir, file), 'utf8')),
  );
}

describe('every built page', () => {
  let browser: Browser;
  const links: PageLinks[] = [];
  const texts: PageText[] = [];
  beforeAll(async () => {
    browser = await launchChromium({offline: true});
    // Chromium's own parser reads each file once, as a visitor's browser would, without running it.
    const page = await browser.newPage();
    for (const {file, url} of builtPages(process.env.TEST_SITE_DIR!)) {
      const read = await page.evaluate(
        (html) => {
          const document = new DOMParser().parseFromString(html, 'text/html');
          // The text a reader sees, but code blocks (where braces are code) and what never shows.
          const pieces: {text: string; code: boolean}[] = [];
          const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const element = node.parentElement;
            if (!node.nodeValue?.includes('{') || !element || element.closest('pre, script, style, noscript, template'))
              continue;
            pieces.push({text: node.nodeValue, code: element.closest('code') !== null});
          }
          const description = document.querySelector('meta[name="description"]')?.getAttribute('content');
          if (description) pieces.push({text: description, code: false});
          return {
            hrefs: [...document.querySelectorAll('[href]')].map((element) => element.getAttribute('href')!),
            anchors: [...document.querySelectorAll('[id], a[name]')].map(
              (element) => element.id || element.getAttribute('name')!,
            ),
            pieces,
          };
        },
        readFileSync(file, 'utf8'),
      );
      links.push({url, hrefs: read.hrefs, anchors: read.anchors});
      texts.push({url, hrefs: read.hrefs, pieces: read.pieces});
    }
  }, 300_000);
  afterAll(() => browser?.close());

  it('links to a built page or file, and each #fragment to an element on that page', () => {
    // Enough links were read that an empty result means something.
    expect(links.find((links) => links.url === '/')!.hrefs).toContain('/tos');
    expect(links.find((links) => links.url === '/docs/features/payments')!.anchors.length).toBeGreaterThan(5);

    const broken = brokenLinks(links, new Set(builtFiles(process.env.TEST_SITE_DIR!)), [
      productionUrl,
      new URL(siteUrl()).origin,
    ]);
    expect(broken).toEqual([]);
  });

  it('shows no MDX expression as written, `{appConfig.domainName}` for the domain, in its text or in a link', () => {
    // Every version's docs were read, and code is in them.
    expect(texts.some((page) => page.url.startsWith('/docs/1.0/'))).toBe(true);
    expect(texts.flatMap((page) => page.pieces).some((piece) => piece.code)).toBe(true);
    expect(unrenderedExpressions(texts, mdxScopeNames(mdxSources()))).toEqual([]);
  });
});
