/**
 * @jest-environment node
 *
 * The import rules of `.dependency-cruiser.cjs` hold: no circle (type-only imports included), no
 * upward import between the worker's layers, nothing of the product from `test/`, nothing of the
 * site in the worker but `src/config`. Runs `npm run check:imports`, the very command a person
 * runs, for dependency-cruiser's JSON: its package is ES modules only, which this CommonJS suite
 * cannot load, and its CLI reads the config and tsconfig.json as it does for a person.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';
import type {ICruiseResult, IRegularForbiddenRuleType, IViolation} from 'dependency-cruiser';
import rules from '../../.dependency-cruiser.cjs';

const ROOT = path.join(__dirname, '..', '..');

// Each rule of ours is a plain one (a `from` and a `to`), none about reachability or dependents.
const forbidden = (rules.forbidden ?? []) as IRegularForbiddenRuleType[];

let result: ICruiseResult;

beforeAll(async () => {
  // The check exits with the number of errors it found: its report is on stdout either way.
  const run = await promisify(execFile)('npm', ['run', '--silent', 'check:imports', '--', '--output-type', 'json'], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: {stdout?: string; stderr?: string}) => ({stdout: error.stdout ?? '', stderr: error.stderr ?? ''}));
  try {
    result = JSON.parse(run.stdout);
  } catch {
    throw new Error(`npm run check:imports did not report: ${run.stderr || run.stdout}`);
  }
}, 180_000);

/** An import as a person reads it, or the circle it closes. */
function route({from, to, cycle, dependencyTypes}: IViolation): string {
  if (cycle) return [from, ...cycle.map((step) => step.name)].join(' → ');
  return `${from} → ${to}${dependencyTypes?.includes('type-only') ? ' (type only)' : ''}`;
}

/** The violations by rule: why the rule is there, once, then the first imports that break it. */
function report(violations: IViolation[]): string[] {
  const SHOWN = 20;
  return [...new Set(violations.map(({rule}) => rule.name))].map((name) => {
    const routes = violations.filter(({rule}) => rule.name === name).map(route);
    const more =
      routes.length > SHOWN ? [`… and ${routes.length - SHOWN} more (npm run check:imports lists them all)`] : [];
    const why = forbidden.find((rule) => rule.name === name)?.comment ?? '';
    return [`${name}: ${why}`, ...[...routes.slice(0, SHOWN), ...more].map((line) => `  ${line}`)].join('\n');
  });
}

it('no import breaks a rule', () => {
  expect(report(result.summary.violations)).toEqual([]);
});

it('reads every folder and file that npm run check:imports names', () => {
  const roots = String(result.summary.optionsUsed.args).split(' ');
  expect(roots).toEqual(expect.arrayContaining(['src', 'worker/src', 'scripts', 'test', 'docusaurus.config.ts']));
  const unread = roots.filter(
    (root) => !result.modules.some(({source}) => source === root || source.startsWith(`${root}/`)),
  );
  expect(unread).toEqual([]);
});

it('names, in each rule, only code that exists', () => {
  // A rule whose folder was renamed or moved would pass for ever, holding nothing.
  const regexps = (restriction: IRegularForbiddenRuleType['from' | 'to']) =>
    [restriction.path ?? [], restriction.pathNot ?? []].flat();
  const sources = result.modules.map(({source}) => source);
  const unresolved = result.modules.flatMap(({dependencies}) =>
    dependencies.filter((dependency) => dependency.couldNotResolve).map(({module}) => module),
  );
  const stale = forbidden.flatMap((rule) => {
    // The unresolvable rule's exceptions name imports (`@theme/…`), not files.
    const named = rule.to.couldNotResolve ? unresolved : sources;
    return [...new Set([...regexps(rule.from), ...regexps(rule.to)])]
      .filter((regexp) => !named.some((name) => new RegExp(regexp).test(name)))
      .map((regexp) => `${rule.name}: ${regexp}`);
  });
  expect(stale).toEqual([]);
});

it('checks with the rules of .dependency-cruiser.cjs, the three the project holds among them', () => {
  const used = (result.summary.ruleSetUsed?.forbidden ?? []).map(({name}) => name);
  expect(used).toEqual(forbidden.map(({name}) => name));
  expect(used).toEqual(
    expect.arrayContaining([
      'no-circular',
      'product-not-to-test',
      'worker-foundation-not-upwards',
      'worker-domains-not-upwards',
    ]),
  );
});
