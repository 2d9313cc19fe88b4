/**
 * A merge's conflict markers committed by mistake break what reads the file only later (an MDX page
 * fails the site's build, a README reads wrong), so every tracked text file is checked here, early.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';

const MARKER = /^(<{7}|>{7}) |^={7}$/m;

test('no tracked file holds a merge conflict\'s markers', () => {
  const files = execFileSync('git', ['ls-files', '-z'], {encoding: 'utf8'}).split('\0').filter(Boolean);
  const marked = files.filter((file) => {
    if (!fs.existsSync(file) || fs.statSync(file).size > 2_000_000) return false;
    const text = fs.readFileSync(file);
    return !text.includes(0) && MARKER.test(text.toString('utf8'));
  });
  expect(marked).toEqual([]);
});
