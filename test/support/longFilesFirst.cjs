/**
 * jest's order of test files, with the few that run longest first when jest has no timings of
 * them (a fresh clone, as on CI). With no timings jest starts the largest files first, and the
 * lint test (one process over the whole repository, 100 s on one core) is small: in a
 * rehearsal it ran last, the other core idle for most of it. Files jest has timings for keep its
 * own order (longest first, failed ones before). The names come from the slowest files printed
 * after every run (summaryReporter.cjs).
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Longest first, as the rehearsals measured them (two files at a time, on 2 cores). */
const LONG = [
  'test/browser/devServer.test.ts',
  'test/unit/lint.test.ts',
  'test/browser/everyBuiltPage.test.ts',
  'test/browser/journey.test.ts',
  'test/browser/admin.test.ts',
  'test/worker/fuzz.test.ts',
];

const ROOT = path.join(__dirname, '..', '..');
for (const file of LONG) {
  if (!fs.existsSync(path.join(ROOT, file)))
    throw new Error(
      `test/support/longFilesFirst.cjs names ${file}, which no longer exists: name its new path or drop it.`,
    );
}
const rank = new Map(LONG.map((file, index) => [path.join(ROOT, file), index]));

class LongFilesFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    // jest's sort has set `duration` on each file it has a timing for.
    const untimedLong = sorted
      .filter((test) => test.duration == null && rank.has(test.path))
      .sort((a, b) => rank.get(a.path) - rank.get(b.path));
    return [...untimedLong, ...sorted.filter((test) => !untimedLong.includes(test))];
  }
}

module.exports = LongFilesFirst;
