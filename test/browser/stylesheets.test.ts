/**
 * Docusaurus links one shared stylesheet from every server-rendered page.
 * CSS kept out of it (src/plugins/clientOnlyStyles) arrives with a script
 * chunk, after the first paint, so no page may need it before its scripts run.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {launchChromium} from '../../scripts/support/chromium';
import {builtPages} from '../support/builtPages';
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
      // Chromium's own parser reads each file as a page with no script would show it (scripting off,
      // as in a DOMParser document): one tab, no page load (a load of each was two thirds of the file).
      const page = await browser.newPage();
      for (const {file, url} of builtPages(outDir())) {
        const {hrefs, classes} = await page.evaluate(
          (html) => {
            const document = new DOMParser().parseFromString(html, 'text/html');
            return {
              hrefs: [...document.querySelectorAll('link[rel=stylesheet]')].map((link) => link.getAttribute('href')!),
              classes: [
                ...new Set([...document.querySelectorAll('[class]')].flatMap((element) => [...element.classList])),
              ],
            };
          },
          readFileSync(file, 'utf8'),
        );
        const paths = hrefs.map((href) => new URL(href, siteUrl(url)).pathname);
        paths.forEach((href) => linked.add(href));
        const styledNow = new Set(paths.flatMap((href) => [...(sheets.get(href) ?? [])]));
        const styledLater = new Set(
          [...sheets].filter(([href]) => !paths.includes(href)).flatMap(([, names]) => [...names]),
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
