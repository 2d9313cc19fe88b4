/**
 * `npm run bench:launch`'s simulation (scripts/bench/launchDay.ts), small: 80 buyers and 3
 * simulated days, in workerd with a real D1 against the stand-ins, so that `npm test` keeps the
 * benchmark's logic working and its goals met. Three in four buy the plan that grants two
 * repositories, the kit's and the prompts, each with its own cap: more than a day's cap of
 * invitations to each, so that some wait in each line. The rest buy the kit alone.
 */
import {appConfig} from '../../src/config';
import {type LaunchFigures, missedGoals, simulateLaunch} from '../../scripts/bench/launchDay';
import {startLaunchWorld} from '../../scripts/bench/launchWorld';

const CAP = appConfig.repository.invitationsPerDay;
const BUYERS = CAP + 30;
/** The buyers whose plan grants the prompts: three in four (launchDay.ts `boughtOf`). */
const ADVANCED = BUYERS - Math.ceil((BUYERS - 2) / 4);

let figures: LaunchFigures;
beforeAll(async () => {
  const world = await startLaunchWorld();
  try {
    figures = await simulateLaunch(world, {buyers: BUYERS, days: 3});
  } finally {
    await world.stop();
  }
}, 300_000);

test('every buyer downloads at the launch and none is lost; no 5xx', () => {
  expect(figures.lost).toEqual([]);
  expect(figures.launchDownloadsFailed).toBe(0);
  expect(figures.fiveHundreds).toEqual([]);
  expect(figures.paymentToDownloadMs.median).toBeGreaterThan(0);
});

const day = (n: number, repository: string) =>
  figures.perDay.find((figure) => figure.day === n && figure.repository === repository);

test("the launch day sends the kit's cap and queues the rest; the next day sends them; none past the cap by GitHub", () => {
  expect(day(0, 'kit')).toMatchObject({invitationsSent: CAP, queued: BUYERS - CAP});
  expect(day(1, 'kit')).toMatchObject({queued: 0});
  expect(figures.refusedForCap.kit).toBe(0);
  expect(figures.mostInADay.kit).toBe(CAP);
});

test("the prompts wait for their own cap, not the kit's: GitHub's count stays within it, and every buyer is invited by the second day", () => {
  // The outbox sends them after the kit's invitation: at the launch's end, most still wait.
  expect(day(0, 'prompts')!.queued).toBeGreaterThan(0);
  expect(day(1, 'prompts')!.invitationsSent).toBe(CAP);
  expect(day(2, 'prompts')).toMatchObject({queued: 0});
  expect(figures.refusedForCap.prompts).toBe(0);
  expect(figures.mostInADay.prompts).toBe(CAP);
  const ended = Object.values(figures.endStates.prompts!).reduce((sum, count) => sum + count, 0);
  expect(ended).toBe(ADVANCED);
  expect(figures.plans).toEqual({Starter: BUYERS - ADVANCED, Advanced: ADVANCED});
  expect(figures.endStates.prompts!.accepted).toBeGreaterThan(0);
});

test("buyers who renamed (one while waiting in the queue) are invited and shown by today's login; no grant fails", () => {
  expect(figures.renames.renamed).toBeGreaterThan(0);
  expect(figures.renames.shownCurrent).toBe(figures.renames.renamed);
  for (const states of Object.values(figures.endStates))
    expect(Object.keys(states).filter((state) => state.startsWith('grant'))).toEqual([]);
});

test('buyers who move their seat keep one account on each repository, and a move past the limit is refused with 429', () => {
  expect(figures.seatMoves.moves).toBeGreaterThan(figures.seatMoves.buyers);
  expect(figures.seatMoves.refusedAtLimit).toBeGreaterThan(0);
  expect(figures.seatMoves.wrongRefusals).toEqual([]);
  expect(figures.seatMoves.oldAccountsKept).toEqual([]);
});

test("each line is first come, first served across purchases, the kit buyers' and the prompts buyers' alike", () => {
  expect(figures.lines.kit).toEqual({waited: BUYERS - CAP, outOfTurn: []});
  expect(figures.lines.prompts!.waited).toBeGreaterThan(0);
  expect(figures.lines.prompts!.outOfTurn).toEqual([]);
});

test("the worker's guarantees hold, and the bench reports every goal met", () => {
  expect(figures.guarantees).toEqual({
    onePurchasePerSession: [],
    untouchedCollaborators: [],
    onlyBuyersInvited: [],
    onlyWhatThePlanGrants: [],
  });
  expect(missedGoals(figures)).toEqual([]);
});
