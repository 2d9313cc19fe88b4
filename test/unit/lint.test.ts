/**
 * @jest-environment node
 *
 * ESLint finds nothing in the code (`eslint.config.mjs` says what it checks, and why each
 * exception): floating promises, unused code, React's hooks rules, Docusaurus's own rules.
 * `npm run lint` shows the same list.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';

const ROOT = path.join(__dirname, '..', '..');
const ESLINT = path.join(ROOT, 'node_modules', '.bin', 'eslint');

interface LintResult {
  filePath: string;
  messages: Array<{ruleId: string | null; line: number; column: number; message: string}>;
}

/** Each problem ESLint reports, as `file:line:column rule: message`; it exits 1 when there are any. */
async function problems(): Promise<string[]> {
  // --cache: a rerun reads only the files that changed since (node_modules/.cache/eslint). The type
  // information the rules need makes a cold run take minutes.
  const args = ['--format', 'json', '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.'];
  let stdout: string;
  try {
    ({stdout} = await promisify(execFile)(ESLINT, args, {cwd: ROOT, maxBuffer: 64 << 20}));
  } catch (error) {
    const failed = error as {code?: number; stdout?: string; stderr?: string};
    // 1 means "problems found"; anything else is ESLint failing (a config error), which must fail loudly.
    if (failed.code !== 1) throw new Error(`eslint failed (exit ${failed.code}):\n${failed.stderr}`, {cause: error});
    stdout = failed.stdout ?? '[]';
  }
  return (JSON.parse(stdout) as LintResult[]).flatMap(({filePath, messages}) =>
    messages.map(
      ({ruleId, line, column, message}) =>
        `${path.relative(ROOT, filePath)}:${line}:${column} ${ruleId ?? 'eslint'}: ${message}`,
    ),
  );
}

test('ESLint finds no problem (npm run lint lists them)', async () => {
  expect(await problems()).toEqual([]);
}, 900_000);
