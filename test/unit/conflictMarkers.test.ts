/**
 * A merge's conflict markers committed by mistake break what reads the file only later (an MDX page
 * fails the site's build, a README reads wrong), so every text file of the kit is checked here,
 * early: in a clone, what git tracks (and new files not ignored yet); in a downloaded archive, which
 * has no `.git`, every file no `.gitignore` names.
 */
import fs from 'node:fs';
import path from 'node:path';
import {kitFiles} from '../../scripts/support/kitFiles';
import {ROOT} from '../../scripts/support/site';

const MARKER = /^(<{7}|>{7}) |^={7}$/m;

test("no file of the kit holds a merge conflict's markers", () => {
  const files = kitFiles(ROOT);
  // The kit's own files were found (a check of nothing would pass too).
  expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'test/unit/conflictMarkers.test.ts']));
  const marked = files.filter((file) => {
    const full = path.join(ROOT, file);
    if (fs.statSync(full).size > 2_000_000) return false;
    const text = fs.readFileSync(full);
    return !text.includes(0) && MARKER.test(text.toString('utf8'));
  });
  expect(marked).toEqual([]);
});
