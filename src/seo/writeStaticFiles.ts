/**
 * Writes the generated public files (robots.txt, the manifest, the demo video's
 * captions) to a folder the site serves as static, for `docusaurus start` and
 * `build` alike.
 * Runs in Node from docusaurus.config.ts; never imported by the browser.
 */
import {join} from 'node:path';
import {writeIfChanged} from '../buildTime/generatedStatic';
import {demoCaptionsVtt} from '../components/landing/Hero/demoCaptions';
import {landing} from '../config';
import {robotsTxt, webManifest} from './searchEngineFiles';

export function writeStaticFiles(dir: string): string {
  writeIfChanged(join(dir, 'robots.txt'), robotsTxt());
  writeIfChanged(join(dir, 'manifest.webmanifest'), `${JSON.stringify(webManifest(), null, 2)}\n`);
  writeIfChanged(join(dir, landing.hero.demoVideo.captions), demoCaptionsVtt());
  return dir;
}
