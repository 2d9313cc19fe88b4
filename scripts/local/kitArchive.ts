/**
 * Local mode's archive of the kit, what the GitHub stand-in hands out as the kit repository's
 * zipball: this very kit, so a buyer who downloads in local mode gets what a buyer gets from GitHub.
 *
 * - In a clone (a `.git` here): the files tracked at HEAD, as `git archive` makes them (GitHub's
 *   zipball is `git archive` too), in one top folder named after HEAD's commit, as GitHub names it.
 *   Made afresh for each download (a fraction of a second): a commit made while `npm start` runs is
 *   in the next one. Uncommitted changes are not, as they would not be on GitHub.
 * - In a kit run from a downloaded archive (no `.git`, no commit): the folder's files but those a
 *   `.gitignore` names (scripts/support/kitFiles.ts), the top folder named after a SHA-1 of them.
 */
import {execFile} from 'node:child_process';
import {createHash} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {zipSync} from 'fflate';
import {hasGit, kitFiles} from '../support/kitFiles';
import type {ArchiveSource} from './githubArchive';

const run = promisify(execFile);
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;

/** The kit at `root`, as GitHub's archive of its repository would hold it. */
export function kitArchive(root: string): ArchiveSource {
  if (hasGit(root)) {
    return {
      holds: "this kit's files tracked at HEAD, as `git archive` makes them",
      async zip(folderFor) {
        const {stdout: head} = await run('git', ['rev-parse', 'HEAD'], {cwd: root});
        const commit = head.trim();
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
    async zip(folderFor) {
      const files = kitFiles(root).map((file) => [file, new Uint8Array(fs.readFileSync(path.join(root, file)))] as const);
      const digest = createHash('sha1');
      for (const [file, bytes] of files) digest.update(`${file}\0${bytes.byteLength}\0`).update(bytes);
      const folder = folderFor(digest.digest('hex'));
      return zipSync(Object.fromEntries(files.map(([file, bytes]) => [`${folder}/${file}`, bytes])));
    },
  };
}
