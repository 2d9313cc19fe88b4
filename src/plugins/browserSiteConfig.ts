import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from './swapInBrowserBuild';

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
 * (about 0.8 KB gzipped less on every page). The server build keeps the whole config. The copy is
 * written as the plugin loads, from the config Docusaurus has validated.
 */
export default function browserSiteConfigPlugin(context: LoadContext): Plugin {
  const file = path.join(context.generatedFilesDir, 'browser-site-config', 'docusaurus.config.mjs');
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, `export default ${JSON.stringify(browserSiteConfig(context.siteConfig))};\n`);
  return swapInBrowserBuild('browser-site-config', /^@generated\/docusaurus\.config$/, file);
}
