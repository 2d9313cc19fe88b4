/**
 * The worker built with Starter sold for teams of up to STARTER_TEAM_MAX seats besides Advanced (of
 * up to TEAM_MAX, as the committed config sells it), the rest of the config as committed, its prompts
 * repository set: the stack the team suites run against. The worker reads the config when it is
 * built, so this is a bundle of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {COMMITTED_ADVANCED, teamPlanEdits} from '../../scripts/support/teamPlans';
import {buildWorkerBundleWithConfig, type ConfigEdit} from '../../scripts/support/workerRuntime';
import type {Plan} from '../../src/config';
import {EXTRA_FIXTURE_REPO, OWNER} from '../../scripts/local/githubApi';
import {startStack, type Stack, uniqueEmail} from './stack';

/** Advanced's seats at most, as the committed config sells it for teams. */
export const TEAM_MAX = COMMITTED_ADVANCED;
/**
 * Starter is sold for teams too, of up to more seats than Advanced: a Starter team moves up whole,
 * so one bigger than Advanced sells cannot.
 */
export const STARTER_TEAM_MAX = TEAM_MAX + 2;
/** The seller's admin address on the team stack (ADMIN_EMAILS): sign it up to use the console. */
export const TEAM_ADMIN = uniqueEmail('team-seller');

/**
 * Starts the team stack before the file's tests and stops it after; read `stack()` inside a test.
 * `variant`: the config's edits of another way to sell teams (fixed tiers), and the plans they make.
 */
export function useTeamStack(variant: {edits: ConfigEdit[]; plans: readonly Plan[]} | null = null): () => Stack {
  let bundleDir: string;
  let stack: Stack | undefined;
  beforeAll(async () => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-team-'));
    buildWorkerBundleWithConfig(bundleDir, variant?.edits ?? teamPlanEdits({starter: STARTER_TEAM_MAX}));
    // The plan's prompts repository too: a member's seat holds every repository of the plan.
    stack = await startStack(
      {GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`, ADMIN_EMAILS: TEAM_ADMIN, GITHUB_EXEMPT: OWNER},
      {bundleDir, ...(variant && {plans: variant.plans})},
    );
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(bundleDir, {recursive: true, force: true});
  });
  return () => stack!;
}
