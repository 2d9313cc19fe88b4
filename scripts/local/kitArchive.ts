/**
 * Local mode's archive of the kit, what the GitHub stand-in hands out as the kit repository's
 * zipball: this very kit, so a buyer who downloads in local mode gets what a buyer gets from GitHub.
 *
 * - In a clone (a `.git` here): the files tracked at HEAD, as `git archive` makes them (GitHub's
 *   zipball is `git archive` too), in one top folder named after HEAD's commit, as GitHub names it.
 *   Made afresh for each download (a fraction of a second): a commit made while `npm start` runs is
 *   in the next one. Uncommitted changes are not, as they would not be on GitHub. Before the first
 *   commit (a buyer who ran `git init` in a downloaded kit) there is nothing at HEAD: the files git
 *   would add then, as below.
 * - In a kit run from a downloaded archive (no `.git`, no commit): the folder's files but those a
 *   `.gitignore` names (scripts/support/kitFiles.ts), the top folder named after a SHA-1 of them.
 *   A symlink is archived as the link itself, as `git archive` stores one: what it points at, in
 *   the kit or out of it (a key, a secrets file), is never read.
 */
import {execFile} from 'node:child_process';
import {createHash} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {type ZipOptions, zipSync} from 'fflate';
import {hasGit, kitFiles} from '../support/kitFiles';
import type {ArchiveSource} from './githubArchive';

const run = promisify(execFile);
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
/** A zip entry made on Unix (`os` 3) that is a symlink (`lrwxrwxrwx`), as `git archive` marks one. */
const SYMLINK: ZipOptions = {os: 3, attrs: (0o120777 << 16) >>> 0};

/** The kit at `root`, as GitHub's archive of its repository would hold it. */
export function kitArchive(root: string): ArchiveSource {
  if (hasGit(root)) {
    return {
      holds:
        "this kit's files tracked at HEAD, as `git archive` makes them (before the first commit, the files git would add)",
      async zip(folderFor) {
        const commit = await headOf(root);
        if (commit === null) return filesZip(root, folderFor);
        const {stdout} = await run('git', ['archive', '--format=zip', `--prefix=${folderFor(commit)}/`, commit], {
          cwd: root,
          encoding: 'buffer',
          maxBuffer: MAX_ARCHIVE_BYTES,
        });
        return new Uint8Array(stdout);
      },
    };
  }
  return {
    holds: "this folder's files but those a .gitignore names (no .git here, so no commit to archive)",
    zip: async (folderFor) => filesZip(root, folderFor),
  };
}

/** HEAD's commit, or null in a repository with no commit yet (git then names no HEAD, and says nothing). */
async function headOf(root: string): Promise<string | null> {
  try {
    const {stdout} = await run('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {cwd: root});
    return stdout.trim();
  } catch (err) {
    // `--verify --quiet` exits 1, silently, only for a name that is not there: any other failure is git's.
    if ((err as {code?: unknown; stderr?: string}).code === 1 && !(err as {stderr?: string}).stderr) return null;
    throw err;
  }
}

/** The kit's files (kitFiles) in one folder named after a SHA-1 of them; a symlink as a link. */
function filesZip(root: string, folderFor: (commit: string) => string): Uint8Array {
  const files = kitFiles(root).map((file) => {
    const full = path.join(root, file);
    const link = fs.lstatSync(full).isSymbolicLink();
    return {file, link, bytes: new Uint8Array(link ? Buffer.from(fs.readlinkSync(full)) : fs.readFileSync(full))};
  });
  const digest = createHash('sha1');
  for (const {file, link, bytes} of files)
    digest.update(`${file}\0${link ? 'link' : bytes.byteLength}\0`).update(bytes);
  const folder = folderFor(digest.digest('hex'));
  return zipSync(
    Object.fromEntries(
      files.map(({file, link, bytes}) => [`${folder}/${file}`, link ? ([bytes, SYMLINK] as const) : bytes]),
    ),
  );
}
