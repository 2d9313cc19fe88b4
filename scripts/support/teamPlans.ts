/**
 * The worker bundle with both committed plans sold for teams. The committed config sells Advanced
 * for teams and not Starter, and the worker reads the config when it is built: the team suites
 * (test/worker/teamStack.ts) and `npm run bench:launch -- --teams` build this bundle of their own,
 * from the same edits, so that both run the same config.
 */
import {appConfig, maxSeatsOf, type Plan} from '../../src/config';
import {TIERED_PLANS} from './tieredPlans';
import {buildWorkerBundleWithConfig, type ConfigEdit} from './workerRuntime';

/** Advanced's seats at most, as the committed config sells it for teams. */
export const COMMITTED_ADVANCED = maxSeatsOf(appConfig.plans.find((plan) => plan.id === 'advanced')!);

/**
 * The most seats a team of each committed plan may buy: Starter's, and Advanced's (the plan that
 * includes Starter; left out, as committed).
 */
export interface TeamSeats {
  starter: number;
  advanced?: number;
}

/**
 * src/config/app.ts's edits that add `team: {maxSeats}` to Starter (each seat at the plan's price:
 * the variant without a team price), and change Advanced's most seats when asked.
 */
export function teamPlanEdits({starter, advanced = COMMITTED_ADVANCED}: TeamSeats): ConfigEdit[] {
  const edits = [
    {file: 'app.ts', from: "      id: 'starter',", to: `      id: 'starter',\n      team: {maxSeats: ${starter}},`},
  ];
  if (advanced !== COMMITTED_ADVANCED)
    edits.push({
      file: 'app.ts',
      from: `        maxSeats: ${COMMITTED_ADVANCED},`,
      to: `        maxSeats: ${advanced},`,
    });
  return edits;
}

/** Builds the worker bundle with both committed plans sold for teams into `outDir`. */
export function buildTeamWorkerBundle(outDir: string, seats: TeamSeats) {
  buildWorkerBundleWithConfig(outDir, teamPlanEdits(seats));
}

/** A plan's `team` as src/config/app.ts spells it, for the edits below. */
function teamSource(plan: Plan): string {
  return `team: ${JSON.stringify(plan.team)},`;
}

/**
 * src/config/app.ts's edits that sell both committed plans in the tiers of TIERED_PLANS: Starter's
 * `team` added, Advanced's replaced (its `seatPrice` spelled as committed, or the edit throws).
 */
export function tieredPlanEdits(): ConfigEdit[] {
  const [starter, advanced] = TIERED_PLANS;
  const committed = appConfig.plans[1]!.team!;
  const seatPrice = committed.seatPrice!;
  return [
    {
      file: 'app.ts',
      from: `      id: '${starter!.id}',`,
      to: `      id: '${starter!.id}',\n      ${teamSource(starter!)}`,
    },
    {
      file: 'app.ts',
      from: [
        '      team: {',
        `        maxSeats: ${committed.maxSeats},`,
        '        seatPrice: {',
        `          price: ${seatPrice.price},`,
        '          priceId: {',
        `            test: '${seatPrice.priceId.test}',`,
        `            production: '${seatPrice.priceId.production}',`,
        '          },',
        '        },',
        '      },',
      ].join('\n'),
      to: `      ${teamSource(advanced!)}`,
    },
  ];
}
