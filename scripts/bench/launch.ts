/**
 * `npm run bench:launch`: a launch day at the scale that matters for GitHub's cap, simulated
 * against the GitHub stand-in made faithful to GitHub's limits (50 invitations a repository per
 * 24 hours, 80 content-creating requests a minute and 500 an hour, invitations that expire after
 * 7 days, accounts renamed). The worker bundle runs in workerd with a fresh local D1, the Stripe
 * and Mailgun stand-ins, and ID tokens verified in full against a local JWKS (launchWorld.ts); the
 * launch and the days after are launchDay.ts.
 *
 * `--buyers N` (1,000 by default) for a quicker run, `--days N` for another number of simulated
 * days (by default until the queue has drained, and a week more for the last invitations to
 * expire). Buyers buy both plans (three in four the featured one, which grants the prompts besides
 * the kit). `--teams N` (none by default) adds N team purchases of `--team-size S` seats (5 by
 * default) spread through the launch among the buyers: each owner pays for S seats, takes the first
 * and gives the others, most by GitHub username, some by e-mail (the member joins and asks), all
 * through the same lines and caps; the worker is then built with both plans sold for teams
 * (scripts/support/teamPlans.ts), the committed config selling Advanced alone. Prints the time from payment
 * to the first download, the invitations sent and the queue's length per simulated day and
 * repository, how the seats end on each, whether each line was first come, first served, and the
 * goals; exits 1 when a goal is missed: a seat lost (a buyer's or a team's), a download that failed
 * at the launch, a 5xx, an invitation past the cap or out of turn, or one of the worker's
 * guarantees broken. A benchmark, not a test: test/worker/launchBench.test.ts runs the same
 * simulation small in `npm test`, with a few teams.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseArgs} from 'node:util';
import {appConfig} from '../../src/config';
import {ensureDevVars} from '../wrangler';
import {buildTeamWorkerBundle, COMMITTED_ADVANCED} from '../support/teamPlans';
import {buildWorkerBundle} from '../support/workerRuntime';
import {type CpuFigures, type LaunchFigures, missedGoals, simulateLaunch} from './launchDay';
import {startLaunchWorld} from './launchWorld';

/** CPU time a Worker's invocation may use on Cloudflare's Free plan (developers.cloudflare.com/workers/platform/limits). */
const FREE_PLAN_CPU_MS = 10;

const {values} = parseArgs({
  options: {
    buyers: {type: 'string', default: '1000'},
    days: {type: 'string'},
    teams: {type: 'string', default: '0'},
    'team-size': {type: 'string', default: '5'},
  },
});
const buyers = Number(values.buyers);
const days = values.days === undefined ? undefined : Number(values.days);
const teams = Number(values.teams);
const teamSize = Number(values['team-size']);
const whole = (n: number, least: number) => Number.isInteger(n) && n >= least;
if (!whole(buyers, 1) || (days !== undefined && !whole(days, 0)) || !whole(teams, 0) || !whole(teamSize, 2)) {
  console.error(
    `Usage: npm run bench:launch -- [--buyers N] [--days N] [--teams N] [--team-size S], whole numbers (buyers at least 1, a team of at least 2 seats; not "${values.buyers}", "${values.days}", "${values.teams}", "${values['team-size']}").`,
  );
  process.exit(2);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function print(figures: LaunchFigures) {
  const byPlan = (plans: Record<string, number>) =>
    Object.entries(plans)
      .map(([name, count]) => `${count} ${name}`)
      .join(', ');
  const {teams: bought} = figures;
  const teamsBought =
    bought.count === 0
      ? ''
      : ` and ${bought.count} teams of ${bought.size} seats (${byPlan(bought.plans)}; ${bought.byEmail} members given their seat by e-mail, the rest by GitHub username), ${figures.seats} seats in all,`;
  console.log(
    `\n${figures.buyers} paid checkouts of one seat (${byPlan(figures.plans)})${teamsBought} in ${Math.round(figures.launchSeconds)} s of real time, then ${figures.days} simulated days (${figures.cronRuns} cron runs).`,
  );
  console.log(
    `Payment to first download: median ${seconds(figures.paymentToDownloadMs.median)}, p99 ${seconds(figures.paymentToDownloadMs.p99)}.`,
  );
  console.log(
    `\nPer simulated day (cap ${appConfig.repository.invitationsPerDay} invitations a repository per 24 hours; day 0 is the launch):`,
  );
  console.table(
    figures.perDay.map((day) => ({
      day: day.day,
      repository: day.repository,
      'invitations sent': day.invitationsSent,
      'queued at the end': day.queued,
      'open invitations': day.open,
      'expired invitations': day.expired,
      accepted: day.collaborators,
    })),
  );
  for (const [repository, states] of Object.entries(figures.endStates)) {
    console.log(
      `How the ${bought.count === 0 ? 'buyers' : "seats (buyers' and teams')"} end on the ${repository} repository:`,
    );
    for (const [state, count] of Object.entries(states).sort(([, a], [, b]) => b - a))
      console.log(`  ${String(count).padStart(6)}  ${state}`);
  }
  console.log(
    `\nRenamed accounts that accepted: ${figures.renames.renamed}; the dashboard showed the login of today for ${figures.renames.shownCurrent}.`,
  );
  console.log(
    `Buyers who let their invitation expire: ${figures.expiredShown.letExpire}; ${figures.expiredShown.expiredInvitation} looked at their dashboard a day after it expired, and it said so for ${figures.expiredShown.shownExpired}.`,
  );
  for (const [repository, {waited, outOfTurn}] of Object.entries(figures.lines))
    console.log(
      `The ${repository} repository's line: ${waited} grants waited in it; ${waited - outOfTurn.length} were invited in their turn.`,
    );
  console.log(
    `Requests for kit access that queued: ${figures.askedOrder.queued}; ${figures.askedOrder.queued - figures.askedOrder.outOfTurn.length} invited no later than every one asked after them was.`,
  );
  const {seatMoves} = figures;
  console.log(
    `Buyers who moved their seat: ${seatMoves.buyers}; ${seatMoves.moves} moves taken, ${seatMoves.deferredForCap} turned away for the day's cap and ${seatMoves.deferredForRateLimit} for GitHub's secondary limit (each tried again later), ${seatMoves.refusedAtLimit} refused past the limit of ${appConfig.repository.maxUsernameChanges} (429 SWAP_LIMIT).`,
  );
  const {release} = figures;
  console.log(
    `The release published after the launch: ${release.recipients} buyers to e-mail, in ${release.batches} Mailgun batches; ${release.recipients - release.notOnce.length} got it exactly once.`,
  );
  const cpuTable = (title: string, cpu: CpuFigures | null) => {
    if (!cpu) return;
    const row = ({runs, median, p99, max}: {runs: number; median: number; p99: number; max: number}) => ({
      runs,
      'median ms': median.toFixed(1),
      'p99 ms': p99.toFixed(1),
      'most ms': max.toFixed(1),
    });
    console.log(title);
    console.table({
      'sent a batch of the release': row(cpu.release),
      'called GitHub or Mailgun otherwise': row(cpu.busy),
      'had nothing to do': row(cpu.idle),
      'baseline: a request that does nothing (GET /api)': row(cpu.baseline),
    });
  };
  cpuTable(
    `workerd's CPU time per cron run, from /proc: the worker and Miniflare's D1 together, more than Cloudflare counts (the Free plan allows ${FREE_PLAN_CPU_MS} ms; npm run bench:release-cpu times a release batch alone):`,
    figures.cronCpuMs,
  );
  console.log(`GitHub's secondary limits refused ${figures.secondaryLimitRefusals} content-creating requests.`);
  console.log('\nGoals:');
  const line = (ok: boolean, text: string) => console.log(`  ${ok ? 'met   ' : 'MISSED'}  ${text}`);
  line(
    figures.lost.length === 0,
    `seats lost on a repository (no accepted or open invitation to it and no working download of it): ${figures.lost.length}${bought.count === 0 ? '' : `, of them the teams' ${bought.seatsLost}`}`,
  );
  const failed = Object.values(figures.endStates)
    .flatMap((states) => Object.entries(states))
    .filter(([state]) => state.startsWith('grant failed'))
    .reduce((sum, [, count]) => sum + count, 0);
  line(failed === 0, `grants failed (no buyer here gives GitHub a reason to refuse): ${failed}`);
  line(figures.launchDownloadsFailed === 0, `downloads that failed at the launch: ${figures.launchDownloadsFailed}`);
  line(figures.fiveHundreds.length === 0, `answers of 5xx, and cron runs that threw: ${figures.fiveHundreds.length}`);
  for (const [repository, most] of Object.entries(figures.mostInADay)) {
    const refused = figures.refusedForCap[repository] ?? 0;
    line(
      refused === 0 && most <= appConfig.repository.invitationsPerDay,
      `invitations past the ${repository} repository's cap, by GitHub's count: ${refused} refused; at most ${most} created in any 24 hours`,
    );
  }
  line(
    seatMoves.wrongRefusals.length === 0,
    `moves past the limit answered otherwise than 429 SWAP_LIMIT: ${seatMoves.wrongRefusals.length}`,
  );
  line(
    seatMoves.oldAccountsKept.length === 0,
    `accounts a seat moved away from, still on the repository or invited: ${seatMoves.oldAccountsKept.length}`,
  );
  line(
    figures.release.notOnce.length === 0,
    `buyers the release did not reach exactly once, by the e-mail for their plan: ${figures.release.notOnce.length}`,
  );
  for (const [repository, {outOfTurn}] of Object.entries(figures.lines))
    line(
      outOfTurn.length === 0,
      `the ${repository} repository's line first come, first served across purchases and seats: ${outOfTurn.length} invited out of turn`,
    );
  line(
    figures.askedOrder.outOfTurn.length === 0,
    `the kit's line first come, first served as the callers asked (a request queued before another was sent is invited first): ${figures.askedOrder.outOfTurn.length} out of turn`,
  );
  line(
    figures.guarantees.onePurchasePerSession.length === 0,
    `one purchase per paid session (a tenth of the webhooks delivered twice): ${figures.guarantees.onePurchasePerSession.length} broken`,
  );
  line(
    figures.guarantees.untouchedCollaborators.length === 0,
    `the seller's own collaborators untouched: ${figures.guarantees.untouchedCollaborators.length} touched`,
  );
  line(
    figures.guarantees.onlyBuyersInvited.length === 0,
    `only the accounts of buyers and of the seats teams gave invited: ${figures.guarantees.onlyBuyersInvited.length} others`,
  );
  line(
    figures.guarantees.onlyWhatThePlanGrants.length === 0,
    `only the repositories a buyer's plan grants: ${figures.guarantees.onlyWhatThePlanGrants.length} invitations to others`,
  );
  const missed = missedGoals(figures);
  for (const text of missed) console.log(`\n  ${text}`);
  return missed.length === 0;
}

async function main() {
  ensureDevVars();
  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-bench-worker-'));
  try {
    console.log('Building the worker bundle (wrangler deploy --dry-run)…');
    // The committed config sells Advanced for teams, not Starter: with teams, the worker sells both
    // for teams of `teamSize` (Advanced of more where committed); without, the committed config.
    if (teams > 0)
      buildTeamWorkerBundle(bundleDir, {starter: teamSize, advanced: Math.max(teamSize, COMMITTED_ADVANCED)});
    else buildWorkerBundle(bundleDir);
    const world = await startLaunchWorld({bundleDir});
    try {
      console.log(
        `Launch: ${buyers} buyers${teams > 0 ? ` and ${teams} teams of ${teamSize}` : ''} pay, ask for access and download…`,
      );
      const figures = await simulateLaunch(world, {
        buyers,
        days,
        teams,
        teamSize,
        progress: (text) => console.log(text),
      });
      process.exitCode = print(figures) ? 0 : 1;
    } finally {
      await world.stop();
    }
  } finally {
    fs.rmSync(bundleDir, {recursive: true, force: true});
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
