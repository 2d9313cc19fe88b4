/**
 * The kit's own files: what a clone of this work holds, whether it was cloned (a `.git` here) or
 * downloaded as GitHub's archive (no `.git`: the buyer who downloads runs the same commands). The
 * tests that read "every file of the repository" and local mode's archive of the kit both ask here.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ignore, {type Ignore} from 'ignore';

/** Whether `root` is a git checkout: a `.git` folder, or the `.git` file of a worktree. */
export function hasGit(root: string): boolean {
  return fs.existsSync(path.join(root, '.git'));
}

/**
 * The files under `root` a clone of this work would hold, relative, `/`-separated and sorted: with
 * git, those it tracks and the new ones it does not ignore (`git ls-files --cached --others
 * --exclude-standard`), deleted ones left out; without git, every file but those a `.gitignore`
 * names (what `npm ci`, `npm start` and `npm test` make: node_modules, builds, `.env`, the local D1).
 */
export function kitFiles(root: string): string[] {
  const files = hasGit(root)
    ? execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      })
        .split('\0')
        .filter((file) => file && fs.existsSync(path.join(root, file)))
    : walk(root, '', []);
  return [...new Set(files)].sort();
}

/** A `.gitignore`'s rules, and the folder (relative to the root, '' for the root) they apply in. */
interface Rules {
  base: string;
  rules: Ignore;
}

/**
 * Every file below `dir` that no `.gitignore` on the way down ignores. Each `.gitignore` applies to
 * its own folder's paths, as git reads it; git's `.git` is never part of the kit.
 */
function walk(root: string, dir: string, outer: Rules[]): string[] {
  const here = path.join(root, dir);
  const own = path.join(here, '.gitignore');
  const rules = fs.existsSync(own) ? [...outer, {base: dir, rules: ignore().add(fs.readFileSync(own, 'utf8'))}] : outer;
  const ignored = (relative: string) =>
    rules.some(({base, rules: set}) => set.ignores(base === '' ? relative : relative.slice(base.length + 1)));
  const files: string[] = [];
  for (const entry of fs.readdirSync(here, {withFileTypes: true})) {
    if (entry.name === '.git') continue;
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!ignored(`${relative}/`)) files.push(...walk(root, relative, rules));
    } else if (!ignored(relative)) {
      files.push(relative);
    }
  }
  return files;
}
