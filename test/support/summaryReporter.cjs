/**
 * Printed after every jest run, below jest's own summary: the slowest test files (where the time
 * goes, so it stays in sight), and every retry the run used, with its test and why it was retried
 * (a retry is allowed only for a named cause outside the product, and never in silence).
 */
const SLOWEST = 10;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults.map((file) => ({
      name: file.testFilePath.replace(`${process.cwd()}/`, ''),
      project: file.displayName?.name ?? '',
      seconds: (file.perfStats.end - file.perfStats.start) / 1000,
    }));
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const lines = [`Slowest test files (${files.length} files, ${total.toFixed(0)} s in all):`];
    for (const file of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
      lines.push(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.project.padEnd(8)} ${file.name}`);
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
