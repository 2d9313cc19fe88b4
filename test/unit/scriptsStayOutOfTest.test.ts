/**
 * @jest-environment node
 *
 * `npm start` and the other scripts are product code: nothing they run may come from `test/`
 * (tests may import from `scripts/`, never the other way). Follows every relative import, static,
 * dynamic or `require`, from each script, through whatever it reaches.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPTS_DIR = path.join(ROOT, 'scripts');
const TEST_DIR = path.join(ROOT, 'test') + path.sep;
const PARSED = /\.(ts|tsx|js|mjs|cjs)$/;

const relative = (file: string) => path.relative(ROOT, file);

/** The file a relative specifier names, the way tsx and TypeScript resolve it. */
function resolveImport(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    ...['.ts', '.tsx', '.js'].map((ext) => base + ext),
    ...['index.ts', 'index.tsx', 'index.js'].map((index) => path.join(base, index)),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
  // An import this walk cannot follow must fail the test, not hide what lies behind it.
  if (!found) throw new Error(`${relative(from)} imports '${specifier}', which names no file`);
  return found;
}

/** Every file `entry` reaches through relative imports, each with the chain of imports that reaches it. */
function reachable(entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const {importedFiles} = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const {fileName} of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      if (chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      if (PARSED.test(target)) queue.push(target);
    }
  }
  return chains;
}

function scriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return scriptFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const entries = [
  'scripts/start.ts',
  ...scriptFiles(SCRIPTS_DIR)
    .map(relative)
    .filter((file) => file !== path.join('scripts', 'start.ts')),
];

it.each(entries)('%s reaches nothing under test/', (entry) => {
  const intoTest = [...reachable(path.join(ROOT, entry)).values()]
    .filter((chain) => chain.at(-1)!.startsWith(TEST_DIR))
    .map((chain) => chain.map(relative).join(' -> '));
  expect(intoTest).toEqual([]);
});

it('follows npm start through its imports to the local stand-ins', () => {
  // Guards the walk itself: a walk that followed nothing would pass the test above vacuously.
  const reached = [...reachable(path.join(ROOT, 'scripts', 'start.ts')).keys()].map(relative);
  expect(reached).toEqual(
    expect.arrayContaining([
      'scripts/local/stripeApi.ts',
      'scripts/local/stripeCheckoutPage.ts',
      'scripts/support/listen.ts',
      'src/config/index.ts',
    ]),
  );
});
