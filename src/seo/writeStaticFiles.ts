/**
 * Writes the generated public files (robots.txt, the manifest) to a folder
 * the site serves as static, for `docusaurus start` and `build` alike.
 * Runs in Node from docusaurus.config.ts; never imported by the browser.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {robotsTxt, webManifest} from './searchEngineFiles';

/**
 * Only a real change touches a file: `docusaurus start` watches this folder
 * and reloads every open page when a file in it is written, and each build
 * (a test's, or a second terminal's) loads the config again.
 */
function writeIfChanged(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current !== content) writeFileSync(file, content);
}

export function writeStaticFiles(dir: string): string {
  mkdirSync(dir, {recursive: true});
  writeIfChanged(join(dir, 'robots.txt'), robotsTxt());
  writeIfChanged(join(dir, 'manifest.webmanifest'), `${JSON.stringify(webManifest(), null, 2)}\n`);
  return dir;
}
