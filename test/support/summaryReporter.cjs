/**
 * Printed after every jest run, below jest's own summary: the slowest test files (where the time
 * goes, so it stays in sight), each with the processor time it cost where the machine can say
 * (test/support/processorTime.ts: a file busy far less than its wall time is waiting, not working),
 * and every retry the run used, with its test and why it was retried (a retry is allowed only for
 * a named cause outside the product, and never in silence).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const SLOWEST = 10;

class SummaryReporter {
  constructor() {
    // The test files append their processor time here; the jest workers inherit the variable.
    this.processorLog = path.join(os.tmpdir(), `jest-processor-time-${process.pid}-${Date.now()}.jsonl`);
    process.env.TEST_PROCESSOR_LOG = this.processorLog;
  }

  /** Core-seconds by test file, as the files recorded them (none where /proc is missing). */
  processorSeconds() {
    if (!fs.existsSync(this.processorLog)) return new Map();
    const lines = fs.readFileSync(this.processorLog, 'utf8').split('\n').filter(Boolean);
    fs.rmSync(this.processorLog, {force: true});
    return new Map(lines.map((line) => JSON.parse(line)).map(({file, seconds}) => [file, seconds]));
  }

  onRunComplete(_contexts, results) {
    const processor = this.processorSeconds();
    const files = results.testResults.map((file) => ({
      name: file.testFilePath.replace(`${process.cwd()}/`, ''),
      project: file.displayName?.name ?? '',
      seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      processor: processor.get(file.testFilePath),
    }));
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const busy = files.reduce((sum, file) => sum + (file.processor ?? 0), 0);
    const lines = [
      `Slowest test files (${files.length} files, ${total.toFixed(0)} s in all` +
        (processor.size > 0 ? `, ${busy.toFixed(0)} core-seconds of processor):` : '):'),
    ];
    for (const file of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
      const cost = file.processor === undefined ? '' : `${file.processor.toFixed(0).padStart(5)} core-s  `;
      lines.push(`  ${file.seconds.toFixed(1).padStart(7)} s  ${cost}${file.project.padEnd(8)} ${file.name}`);
    }
    const retried = results.testResults.flatMap((file) =>
      file.testResults
        .filter((test) => (test.invocations ?? 1) > 1)
        .map((test) => ({file: file.testFilePath.replace(`${process.cwd()}/`, ''), test})),
    );
    lines.push(retried.length === 0 ? 'Retries used: none' : `Retries used: ${retried.length}`);
    for (const {file, test} of retried) {
      lines.push(`  ${file} › ${test.fullName} (${test.invocations} goes, ${test.status} in the end)`);
      for (const reason of test.retryReasons ?? []) lines.push(`    first go: ${reason.split('\n')[0].slice(0, 200)}`);
    }
    process.stderr.write(`\n${lines.join('\n')}\n`);
  }
}

module.exports = SummaryReporter;
