import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

/**
 * The parts of the site config only the build reads: the tags and scripts the HTML template
 * writes, and the presets, themes, plugins and client modules already built into the bundles.
 * No browser code reads them (checked in @docusaurus/core's client, the classic theme and the
 * search theme), yet Docusaurus puts the whole config in `main.js`.
 */
const BUILD_ONLY_KEYS = ['headTags', 'presets', 'themes', 'plugins', 'clientModules', 'staticDirectories'] as const;

/** The site config as the browser gets it: Docusaurus's own serialisation, less the build-only keys. */
export function browserSiteConfig(siteConfig: object): Record<string, unknown> {
  const config = JSON.parse(JSON.stringify(siteConfig)) as Record<string, unknown>;
  for (const key of BUILD_ONLY_KEYS) delete config[key];
  return config;
}

/**
 * In the browser build, `@generated/docusaurus.config` is a copy without the build-only keys
 * (about 0.8 KB gzipped less on every page). The server build keeps the whole config.
 *
 * The copy is written here, as the bundler is configured, not as the plugin loads: only by then
 * have the themes validated `themeConfig` and filled in their defaults (the docs pages read
 * `themeConfig.docs.versionPersistence`). Written earlier, it broke every docs page.
 */
export default function browserSiteConfigPlugin(context: LoadContext): Plugin {
  return {
    name: 'browser-site-config',
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) return {};
      const dir = path.join(context.generatedFilesDir, 'browser-site-config');
      mkdirSync(dir, {recursive: true});
      const file = path.join(dir, 'docusaurus.config.mjs');
      writeFileSync(file, `export default ${JSON.stringify(browserSiteConfig(context.siteConfig))};\n`);
      return {
        plugins: [new currentBundler.instance.NormalModuleReplacementPlugin(/^@generated\/docusaurus\.config$/, file)],
      };
    },
  };
}
