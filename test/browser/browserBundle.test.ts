/**
 * What every page's `main.js` carries of the site config (src/plugins/browserSiteConfig.ts): what
 * pages read, such as the theme's settings and the site's own, and none of what only the build
 * reads, such as the head tags and the client modules, which would weigh on every first visit.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

function mainBundle(): string {
  const scripts = path.join(process.env.TEST_SITE_DIR!, 'assets', 'js');
  const main = readdirSync(scripts).filter((name) => /^main\.[0-9a-f]+\.js$/.test(name));
  expect(main).toHaveLength(1);
  return readFileSync(path.join(scripts, main[0]!), 'utf8');
}

it("carries the site config's settings for pages, as the themes completed them, and none of what only the build reads", () => {
  const main = mainBundle();
  // Read by the pages: the theme's settings and the site's own (customFields.siteSettings).
  // `versionPersistence` is a default the docs theme fills in as it validates the theme config:
  // a copy made before that breaks every docs page.
  for (const key of ['themeConfig', 'versionPersistence', 'customFields', 'siteSettings', 'baseUrlIssueBanner'])
    expect(main.includes(key)).toBe(true);
  // A key of the config object, quoted by the minifier or not.
  const keysFound = ['headTags', 'presets', 'themes', 'plugins', 'clientModules', 'staticDirectories'].filter((key) =>
    new RegExp(`["{,]${key}"?:`).test(main),
  );
  expect(keysFound).toEqual([]);
});
