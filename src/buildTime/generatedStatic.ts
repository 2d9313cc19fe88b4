/**
 * The folder of files written at build time that the site serves as static
 * (`staticDirectories` in docusaurus.config.ts), for `docusaurus start` and
 * `build` alike. Node only; never imported by the browser.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';

export const GENERATED_STATIC_DIR = path.join(__dirname, '..', '..', '.generated', 'static');

/**
 * Only a real change touches a file: `docusaurus start` watches this folder
 * and reloads every open page when a file in it is written, and each build
 * (a test's, or a second terminal's) loads the config again.
 */
export function writeIfChanged(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current === content) return;
  mkdirSync(path.dirname(file), {recursive: true});
  writeFileSync(file, content);
}
