import {readdir, readFile, rename, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {isTokenPage, serviceName} from '../config';
import {
  contentSecurityPolicyRules,
  isOwnBundle,
  pageUrl,
  readScripts,
  withoutScripts,
  type BuiltPageScripts,
  type PolicySettings,
} from '../buildTime/contentSecurityPolicy';
import {renderHeadersFile} from '../buildTime/headersFile';
import {staleHostConfigs} from '../buildTime/hostHeaders';

/**
 * Writes `build/_headers`: every page's Content-Security-Policy (src/buildTime/contentSecurityPolicy.ts),
 * with the hashes of the inline scripts the built pages hold. Cloudflare (the one-Worker deploy,
 * Pages) and Netlify read the file as it is; `npm run headers` gives it to Vercel and Render.
 *
 * It reads the pages as they are served, so it runs after every plugin that rewrites them
 * (paintFirst): docusaurus.config.ts runs the two in order. From a page that holds a token it first
 * takes out any script loaded by address that is not one of the site's bundles (a `scripts` entry
 * of docusaurus.config.ts goes into every page): those pages run only the site's own code.
 */
export default function contentSecurityPolicy(settings: PolicySettings): Plugin {
  return {
    name: 'content-security-policy',
    async postBuild({outDir, siteConfig, siteDir}) {
      const siteOrigin = new URL(siteConfig.url).origin;
      const files = (await readdir(outDir, {recursive: true, withFileTypes: true}))
        .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
        .map((entry) => path.join(entry.parentPath, entry.name));
      const pages: BuiltPageScripts[] = [];
      const leftOut = new Set<string>();
      for (const file of files) {
        const relative = path.relative(outDir, file);
        const url = pageUrl(relative);
        const html = await readFile(file, 'utf8');
        let scripts = readScripts(html, relative);
        const others = isTokenPage(url)
          ? scripts.external.filter((script) => !isOwnBundle(script.src, siteOrigin))
          : [];
        if (others.length > 0) {
          for (const script of others) leftOut.add(script.src);
          const kept = withoutScripts(html, others);
          await writeFile(`${file}.csp`, kept);
          await rename(`${file}.csp`, file);
          scripts = readScripts(kept, relative);
        }
        pages.push({url, scripts});
      }
      const rules = contentSecurityPolicyRules(pages, settings, siteOrigin);
      const stale = staleHostConfigs(siteDir, rules);
      if (stale.length > 0) throw new Error(stale.join('\n'));
      await writeFile(
        path.join(outDir, '_headers'),
        renderHeadersFile(rules, [
          'Written by src/plugins/contentSecurityPolicy.ts at every build: edit the plugin, not this file.',
          'Cloudflare (Workers static assets, Pages) and Netlify read it as it is. Vercel, Render: npm run headers.',
        ]),
      );
      if (leftOut.size > 0) {
        console.warn(
          `[${serviceName}] Left out of the pages that hold a token (they run only the site's own code): ${[...leftOut].join(', ')}`,
        );
      }
    },
  };
}
