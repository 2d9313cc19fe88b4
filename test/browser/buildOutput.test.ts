/**
 * What a build of the site prints, as `npm start -- --built` shows it: each line once, and nothing
 * that tells the reader to do what that command does next (scripts/start.ts leaves SERVE_ADVICE
 * out). Read from the suite's own build (globalSetup keeps what it printed): the same
 * `docusaurus build`, with the Auth emulator as `npm start`'s local mode has it.
 */
import fs from 'node:fs';
import {stripVTControlCharacters} from 'node:util';
import {SERVE_ADVICE} from '../../scripts/support/site';

const printed = stripVTControlCharacters(fs.readFileSync(process.env.TEST_SITE_BUILD_OUTPUT!, 'utf8'))
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

it('says once that the build signs in against the Firebase Auth emulator', () => {
  expect(
    printed.filter((line) => line.includes('This build signs in against the Firebase Auth emulator')),
  ).toHaveLength(1);
});

it("ends with Docusaurus's advice to serve the build, the line `npm start -- --built` leaves out as it serves the build itself", () => {
  // The pattern start.ts leaves out still matches what Docusaurus prints, and nothing else.
  expect(printed.filter((line) => SERVE_ADVICE.test(line))).toEqual([expect.stringContaining('npm run serve')]);
});

it('prints no line twice', () => {
  const twice = printed.filter((line, index) => printed.indexOf(line) !== index);
  expect(twice).toEqual([]);
});
