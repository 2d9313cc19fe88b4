/**
 * Docusaurus links one shared stylesheet from every server-rendered page.
 * CSS kept out of it (src/plugins/clientOnlyStyles) arrives with a script
 * chunk, after the first paint, so no page may need it before its scripts run.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {launchChromium} from '../../scripts/support/chromium';
import {builtUrls} from '../support/builtPages';
import {siteUrl} from './helpers';

/** Class names a stylesheet's selectors name (url() and string contents left out). */
function classesIn(css: string): Set<string> {
  const selectors = css.replace(/url\([^)]*\)/g, '').replace(/"[^"]*"|'[^']*'/g, '');
  return new Set([...selectors.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((match) => match[1]));
}

describe('the built stylesheets', () => {
  const outDir = () => process.env.TEST_SITE_DIR!;

  it('style every class a server-rendered page uses before any script runs', async () => {
    const cssDir = path.join(outDir(), 'assets', 'css');
    const sheets = new Map(
      readdirSync(cssDir).map((file) => [
        `/assets/css/${file}`,
        classesIn(readFileSync(path.join(cssDir, file), 'utf8')),
      ]),
    );
    const browser = await launchChromium({offline: true});
    const unstyled: string[] = [];
    const linked = new Set<string>();
    try {
      const context = await browser.newContext({javaScriptEnabled: false});
      const page = await context.newPage();
      for (const url of builtUrls(outDir())) {
        await page.goto(siteUrl(url), {waitUntil: 'domcontentloaded'});
        const {hrefs, classes} = await page.evaluate(() => ({
          hrefs: [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].map(
            (link) => new URL(link.href).pathname,
          ),
          classes: [...new Set([...document.querySelectorAll('[class]')].flatMap((element) => [...element.classList]))],
        }));
        hrefs.forEach((href) => linked.add(href));
        const styledNow = new Set(hrefs.flatMap((href) => [...(sheets.get(href) ?? [])]));
        const styledLater = new Set(
          [...sheets].filter(([href]) => !hrefs.includes(href)).flatMap(([, names]) => [...names]),
        );
        for (const name of classes) {
          if (styledLater.has(name) && !styledNow.has(name)) unstyled.push(`${url}: .${name}`);
        }
      }
    } finally {
      await browser.close();
    }
    expect(unstyled).toEqual([]);
    // The check means something only while some CSS really is kept out of the shared stylesheet.
    expect([...sheets.keys()].filter((href) => !linked.has(href)).length).toBeGreaterThan(0);
  });
});
