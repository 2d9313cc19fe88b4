/**
 * @jest-environment node
 *
 * The code is as Prettier writes it (`.prettierrc.json`, what `.prettierignore` leaves out and
 * why), so a change shows only what it changes. `npm run format` fixes what this finds.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';

const ROOT = path.join(__dirname, '..', '..');
const PRETTIER = path.join(ROOT, 'node_modules', '.bin', 'prettier');

/** The files Prettier would change, as it names them; it exits 1 when there are any. */
async function unformatted(): Promise<string[]> {
  // --cache: a rerun reads only the files that changed since (node_modules/.cache/prettier).
  const run = promisify(execFile)(PRETTIER, ['--list-different', '--cache', '.'], {cwd: ROOT, maxBuffer: 16 << 20});
  try {
    await run;
    return [];
  } catch (error) {
    const {code, stdout, stderr} = error as {code?: number; stdout?: string; stderr?: string};
    // 1 means "some files differ"; anything else is Prettier failing, which must fail loudly.
    if (code !== 1 || stderr) throw new Error(`prettier failed (exit ${code}):\n${stderr}`, {cause: error});
    return (stdout ?? '').split('\n').filter(Boolean);
  }
}

test('every file Prettier covers is formatted (npm run format fixes it)', async () => {
  expect(await unformatted()).toEqual([]);
}, 180_000);
