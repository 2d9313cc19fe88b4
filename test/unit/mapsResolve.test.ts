/**
 * @jest-environment node
 *
 * The maps of the repository send a reader to its files: `SECURITY.md` to the code and the test
 * of each rule, the README's tree, the references it sends a reader to (`DOCS.md`,
 * `scripts/README.md`, `src/config/README.md`), `test/README.md` and `worker/README.md` to where
 * things live.
 * Every file, folder, test and piece of code (`access/grants/records.ts` `refusalFor`) they name must be in
 * the kit as they name it: a rename or a removal fails here, naming the map and its line, instead
 * of leaving a map that points nowhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import {kitFiles} from '../../scripts/support/kitFiles';
import {ROOT} from '../support/docsFacts';
import {kitOf, namesIn, type MapDocument, type NamedPath} from '../support/mapNames';
import {NOT_KIT_FILES} from '../support/mapsAllowList';
import {namesTitle, testTitles} from '../support/testTitles';

/** Each map, and the folders it names paths from (see `test/support/mapNames.ts`). */
const MAPS: MapDocument[] = [
  // The rules' code is the worker's: `access/grants/seat.ts` is worker/src's, `migrations/` worker's.
  {file: 'SECURITY.md', bases: ['', 'worker/src', 'worker']},
  {file: 'README.md', bases: ['']},
  // The README's long references, each beside what it describes.
  {file: 'DOCS.md', bases: ['']},
  {file: 'scripts/README.md', bases: ['scripts', '']},
  {file: 'src/config/README.md', bases: ['src/config', '']},
  // `unit/`, `stubs/`: the folders of test/, beside paths from the root.
  {file: 'test/README.md', bases: ['test', '']},
  // Its own folder first (`src/access/`), and the worker's code as SECURITY.md names it (`mail.ts`).
  {file: 'worker/README.md', bases: ['worker', 'worker/src', '']},
  // Its own files (`seat.ts`), and the rest of access/ and the worker's (`payments/revocations.ts`).
  {file: 'worker/src/access/grants/README.md', bases: ['worker/src/access/grants', 'worker/src/access', 'worker/src']},
];

const kit = kitOf(kitFiles(ROOT));
const gitignore = ignore().add(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8'));
const named = MAPS.map((map) => ({map: map.file, ...namesIn(map, kit)}));

/** A name's `*` (any name in one folder), `**` (any folders) or `…` (the part left out) as a pattern. */
function pattern(name: string): RegExp {
  const source = name
    .split(/(\*\*\/|\*|…)/)
    .map((part) =>
      part === '**/' ? '(?:.*/)?' : part === '*' || part === '…' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

function inKit(named: NamedPath): boolean {
  if (named.expect === 'folder') return kit.folders.has(named.path);
  if (named.expect === 'file or folder') return kit.files.has(named.path) || kit.folders.has(`${named.path}/`);
  const matching = [...kit.files].filter((file) => pattern(named.path).test(file)).length;
  return named.expect === 'one file' ? matching === 1 : matching > 0;
}

/** What `.gitignore` keeps out of the kit on purpose (`.env`, `build/`): named, never shipped. */
function leftOutOnPurpose(named: NamedPath): boolean {
  return !named.path.startsWith('../') && gitignore.ignores(named.path);
}

const titlesOf = new Map<string, string[]>();
function titlesIn(file: string): string[] {
  if (!titlesOf.has(file)) titlesOf.set(file, testTitles(fs.readFileSync(path.join(ROOT, file), 'utf8'), file));
  return titlesOf.get(file)!;
}

describe.each(named)('$map', ({map, paths, code, tests}) => {
  it('names files and folders that are in the kit', () => {
    const missing = paths
      .filter((named) => !inKit(named) && !leftOutOnPurpose(named) && !(named.written in NOT_KIT_FILES))
      .map(
        (named) =>
          `${map}:${named.line} \`${named.written}\` read as ${named.path}: no such ${named.expect} in the kit`,
      );
    expect(missing).toEqual([]);
  });

  it('names code that is in the files it names', () => {
    const missing = code
      .filter((named) => kit.files.has(named.file))
      .filter((named) => {
        const text = fs.readFileSync(path.join(ROOT, named.file), 'utf8');
        return !named.name
          .split('.')
          .every((part) => new RegExp(`(?<![\\w$])${part.replace(/\$/g, '\\$')}(?![\\w$])`).test(text));
      })
      .map((named) => `${map}:${named.line} ${named.file} has no \`${named.name}\``);
    expect(missing).toEqual([]);
  });

  it('names tests whose files hold them', () => {
    const missing = tests
      .filter((test) => kit.files.has(test.file))
      .filter((test) => !test.levels.every((level) => namesTitle(titlesIn(test.file), level)))
      .map(
        (test) => `${map}:${test.line} ${test.file} › ${test.levels.join(' › ')}: no test of that title in the file`,
      );
    expect(missing).toEqual([]);
  });
});

it('keeps as no file of the kit only names a map still gives', () => {
  const given = new Set(named.flatMap(({paths}) => paths.map((named) => named.written)));
  expect(Object.keys(NOT_KIT_FILES).filter((name) => !given.has(name))).toEqual([]);
});
