/**
 * @jest-environment node
 *
 * Local mode's archive of the kit (scripts/local/kitArchive.ts), made in a folder of its own: what a
 * buyer who downloads in local mode gets must be the kit's files and nothing of the seller's machine
 * (no secrets file Wrangler or the site reads, nothing a symlink points at outside the kit), and a
 * kit whose git repository has no commit yet still hands out the files git would add.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {strFromU8, unzipSync} from 'fflate';
import {kitArchive} from '../../scripts/local/kitArchive';
import {ROOT} from '../../scripts/support/site';

/** A zip entry's Unix file type (its external attributes' high bits), as `unzip -Z` shows it. */
const S_IFLNK = 0o120000;

let dir: string;
let outside: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-archive-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-outside-'));
  // The kit's own ignore rules, as a download of it holds them.
  fs.copyFileSync(path.join(ROOT, '.gitignore'), path.join(dir, '.gitignore'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), {recursive: true});
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('README.md', '# The kit\n');
  write('.env.example', 'WORKER_URL=\n');
  write('worker/.dev.vars.example', 'STRIPE_SECRET_KEY=\n');
  // What a seller keeps beside the kit, read by Wrangler (`.dev.vars.<env>`, `.env.<env>`) or the site.
  write('.env', 'SECRET=root-env\n');
  write('.env.production', 'SECRET=root-env-production\n');
  write('worker/.dev.vars', 'STRIPE_SECRET_KEY=sk_live_dev_vars\n');
  write('worker/.dev.vars.staging', 'STRIPE_SECRET_KEY=sk_live_dev_vars_staging\n');
  write('worker/.env.staging', 'STRIPE_SECRET_KEY=sk_live_worker_env_staging\n');
  fs.writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE KEY OUTSIDE THE KIT\n');
});
afterEach(() => {
  fs.rmSync(dir, {recursive: true, force: true});
  fs.rmSync(outside, {recursive: true, force: true});
});

/** The archive's entries by path below its one top folder, with their zip attributes. */
async function archived(root: string) {
  const zip = await kitArchive(root).zip((commit) => `owner-kit-${commit.slice(0, 7)}`);
  const entries = Object.entries(unzipSync(zip)).filter(([name]) => !name.endsWith('/'));
  const folders = new Set(entries.map(([name]) => name.split('/')[0]));
  expect(folders.size).toBe(1);
  return {
    zip,
    files: Object.fromEntries(entries.map(([name, bytes]) => [name.slice(name.indexOf('/') + 1), strFromU8(bytes)])),
  };
}

/** The Unix mode each entry of the zip records (central directory: external attributes >> 16). */
function unixModes(zip: Uint8Array): Record<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const modes: Record<string, number> = {};
  for (let at = 0; at + 46 <= zip.byteLength;) {
    if (view.getUint32(at, true) !== 0x02014b50) {
      at += 1;
      continue;
    }
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const name = strFromU8(zip.subarray(at + 46, at + 46 + nameLength));
    modes[name.slice(name.indexOf('/') + 1)] = view.getUint32(at + 38, true) >>> 16;
    at += 46 + nameLength + extra + comment;
  }
  return modes;
}

const git = (...args: string[]) => execFileSync('git', args, {cwd: dir, encoding: 'utf8'});

describe('a kit without git (run from a downloaded archive)', () => {
  test('holds the kit and its two example files, and no .env, .env.<name>, .dev.vars or .dev.vars.<name>', async () => {
    const {files} = await archived(dir);
    expect(Object.keys(files).sort()).toEqual(['.env.example', '.gitignore', 'README.md', 'worker/.dev.vars.example']);
    expect(Object.values(files).join('')).not.toMatch(/SECRET=|sk_live_/);
  });

  test('never reads through a symlink: one out of the kit is archived as the link git would store, not as what it points at', async () => {
    fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(dir, 'deploy-key'));
    fs.symlinkSync(outside, path.join(dir, 'shared'));
    fs.symlinkSync('README.md', path.join(dir, 'README-link.md'));
    const {zip, files} = await archived(dir);
    expect(Object.values(files).join('')).not.toContain('PRIVATE KEY OUTSIDE THE KIT');
    // As `git archive` stores a symlink: an entry whose text is the link's target, marked a link.
    expect(files).toMatchObject({
      'deploy-key': path.join(outside, 'id_rsa'),
      shared: outside,
      'README-link.md': 'README.md',
    });
    const modes = unixModes(zip);
    for (const link of ['deploy-key', 'shared', 'README-link.md'])
      expect([link, modes[link]! & 0o170000]).toEqual([link, S_IFLNK]);
    expect(modes['README.md']! & 0o170000).not.toBe(S_IFLNK);
  });
});

describe('a kit in a git repository', () => {
  beforeEach(() => {
    git('init', '--quiet');
  });

  test('with no commit yet: the files git would add, and a folder named after them, not a failure', async () => {
    const {files} = await archived(dir);
    expect(Object.keys(files).sort()).toEqual(['.env.example', '.gitignore', 'README.md', 'worker/.dev.vars.example']);
    expect(kitArchive(dir).holds).toContain('before the first commit');
  });

  test('with a commit: the files tracked at HEAD, the secrets files left out by the .gitignore', async () => {
    git('add', '--all');
    git('-c', 'user.name=Seller', '-c', 'user.email=seller@example.com', 'commit', '--quiet', '-m', 'The kit');
    expect(git('ls-files').split('\n').filter(Boolean).sort()).toEqual([
      '.env.example',
      '.gitignore',
      'README.md',
      'worker/.dev.vars.example',
    ]);
    const {files} = await archived(dir);
    expect(Object.keys(files).sort()).toEqual(['.env.example', '.gitignore', 'README.md', 'worker/.dev.vars.example']);
  });
});
