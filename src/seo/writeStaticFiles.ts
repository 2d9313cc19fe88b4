/**
 * Writes the generated public files (robots.txt, the manifest) to a folder
 * the site serves as static, for `docusaurus start` and `build` alike.
 * Runs in Node from docusaurus.config.ts; never imported by the browser.
 */
import {join} from 'node:path';
import {writeIfChanged} from '../buildTime/generatedStatic';
import {robotsTxt, webManifest} from './searchEngineFiles';

export function writeStaticFiles(dir: string): string {
  writeIfChanged(join(dir, 'robots.txt'), robotsTxt());
  writeIfChanged(join(dir, 'manifest.webmanifest'), `${JSON.stringify(webManifest(), null, 2)}\n`);
  return dir;
}
