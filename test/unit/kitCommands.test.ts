/**
 * @jest-environment node
 *
 * The README's two commands set the kit up, whether it was cloned or downloaded: a download is
 * GitHub's archive of the repository, the same files without `.git`. The buyer's journey runs this
 * file again inside the archive local mode hands out (test/support/downloadedKit.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import {kitFiles} from '../../scripts/support/kitFiles';
import {readPage, npmScriptsNamed, repoPathsNamed} from '../support/docsFacts';
import {ROOT} from '../../scripts/support/site';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const pkg = readJson('package.json');
const readme = readPage(path.join(ROOT, 'README.md'));
/** The README's reference for the npm scripts, one click from it. */
const scriptsReadme = readPage(path.join(ROOT, 'scripts', 'README.md'));
/** A front door, read in a minute: longer references sit beside what they describe. */
const README_MAX_BYTES = 12_000;

/** What the README's commands make, and a clone or an archive does not hold. */
const MADE_BY_THE_COMMANDS = [
  'node_modules/',
  '.env',
  'worker/.dev.vars',
  'worker/.wrangler/',
  '.docusaurus/',
  '.test-build/',
  'build/',
];
/** A file or folder of MADE_BY_THE_COMMANDS, or a file in one of its folders. */
const madeByTheCommands = (file: string) =>
  MADE_BY_THE_COMMANDS.some((output) => (output.endsWith('/') ? `${file}/`.startsWith(output) : file === output));

it("gives the README's two commands, and package.json has the scripts they run", () => {
  const setUp = readme.blocks.find((block) => block.lang === 'bash')?.code ?? '';
  expect(setUp).toMatch(/^npm ci && npm start\b/m);
  expect(setUp).toMatch(/^npm ci && npm test\b/m);
  expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['start', 'test']));
});

it('keeps the README under 12 KB', () => {
  expect(Buffer.byteLength(readme.source)).toBeLessThan(README_MAX_BYTES);
});

it.each(['README.md', 'scripts/README.md'])(
  '%s names only npm scripts that exist, and only files that exist or that the commands make',
  (file) => {
    const page = readPage(path.join(ROOT, file));
    expect(npmScriptsNamed(page).filter((script) => !(script in pkg.scripts))).toEqual([]);
    expect(
      repoPathsNamed(page).filter((file) => !madeByTheCommands(file) && !fs.existsSync(path.join(ROOT, file))),
    ).toEqual([]);
  },
);

it('lists every npm script of package.json in scripts/README.md', () => {
  const listed = new Set(npmScriptsNamed(scriptsReadme));
  expect(Object.keys(pkg.scripts).filter((script) => !listed.has(script))).toEqual([]);
});

it('has a package-lock.json that `npm ci` takes: its root is package.json', () => {
  const lock = readJson('package-lock.json');
  const root = lock.packages[''];
  expect({name: lock.name, version: lock.version}).toEqual({name: pkg.name, version: pkg.version});
  for (const field of ['dependencies', 'devDependencies', 'engines'] as const)
    expect([field, root[field]]).toEqual([field, pkg[field]]);
});

it('holds the example files `npm start` copies', () => {
  for (const example of ['.env.example', 'worker/.dev.vars.example'])
    expect(fs.existsSync(path.join(ROOT, example))).toBe(true);
});

it("counts as the kit's files none of what the commands make: the checks over every file read the kit's own", () => {
  const files = kitFiles(ROOT);
  expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', 'package-lock.json', '.gitignore']));
  expect(files.filter(madeByTheCommands)).toEqual([]);
});
