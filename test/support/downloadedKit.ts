/**
 * The kit as a buyer downloads it: GitHub's archive of the repository, one folder named
 * `{owner}-{repo}-{commit}` holding the files git tracks, and no `.git`. Unpacked into a temporary
 * folder, sharing this checkout's node_modules (as `npm ci` would fill it), to run in it what reads
 * the repository's shape: the tests that read every file of the kit, and the README's commands.
 */
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {unzipSync} from 'fflate';
import {hasGit, kitFiles} from '../../scripts/support/kitFiles';
import {ROOT} from '../../scripts/support/site';

export interface DownloadedKit {
  /** The archive's one top folder. */
  folder: string;
  /** Its files, relative to the folder, sorted. */
  files: string[];
  /** Where it was unpacked (the folder itself). */
  dir: string;
}

/** Unpacks the archive, as a buyer does, and links this checkout's node_modules into it. */
export function unpackKit(zip: Uint8Array): DownloadedKit {
  const entries = Object.entries(unzipSync(zip)).filter(([name]) => !name.endsWith('/'));
  const folders = [...new Set(entries.map(([name]) => name.split('/')[0]!))];
  if (folders.length !== 1)
    throw new Error(`The archive holds ${folders.length} top folders, not one: ${folders.slice(0, 5).join(', ')}`);
  const [folder] = folders as [string];
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'downloaded-kit-')), folder);
  const files: string[] = [];
  for (const [name, bytes] of entries) {
    const file = name.slice(folder.length + 1);
    files.push(file);
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true});
    fs.writeFileSync(path.join(dir, file), bytes);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return {folder, files: files.sort(), dir};
}

/** Removes an unpacked kit (the temporary folder around it). */
export function removeKit(kit: DownloadedKit): void {
  fs.rmSync(path.dirname(kit.dir), {recursive: true, force: true});
}

/**
 * What the archive of this checkout as `repository` (`owner/name`) must hold: with git, the files
 * tracked at HEAD, in a folder named after HEAD's commit (its first 7 characters, as GitHub names
 * it); without (a kit run from an archive), the kit's files, in a folder named after some digest.
 */
export function expectedKit(repository: string): {files: string[]; folder: RegExp} {
  const named = (commit: string) => new RegExp(`^${repository.replace('/', '-').replace(/[.]/g, '\\.')}-${commit}$`);
  if (!hasGit(ROOT)) return {files: kitFiles(ROOT), folder: named('[0-9a-f]{7}')};
  const git = (...args: string[]) =>
    execFileSync('git', args, {cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  return {
    files: git('ls-tree', '-r', '-z', '--name-only', 'HEAD').split('\0').filter(Boolean).sort(),
    folder: named(git('rev-parse', 'HEAD').trim().slice(0, 7)),
  };
}

/**
 * Runs unit test files inside the unpacked kit with its own jest config, one process, as its
 * buyer's `npm test` would: the exit code and what it printed.
 */
export function runUnitTestsIn(
  kit: DownloadedKit,
  testFiles: string[],
): Promise<{code: number | null; output: string}> {
  // This run's own jest variables would tell the inner jest it is one of our workers.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('JEST_')));
  const jest = path.join(kit.dir, 'node_modules', 'jest', 'bin', 'jest.js');
  const args = [jest, '--selectProjects', 'unit', '--runInBand', '--ci', '--testPathPatterns', ...testFiles];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {cwd: kit.dir, env, stdio: ['ignore', 'pipe', 'pipe']});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({code, output}));
  });
}
