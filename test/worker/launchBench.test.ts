/**
 * `npm run bench:launch`'s simulation (scripts/bench/launchDay.ts), small: 60 buyers (more than a
 * day's cap of invitations, so some wait in the queue) and 3 simulated days, in workerd with a real
 * D1 against the stand-ins, so that `npm test` keeps the benchmark's logic working and its goals met.
 */
import {appConfig} from '../../src/config';
import {type LaunchFigures, missedGoals, simulateLaunch} from '../../scripts/bench/launchDay';
import {startLaunchWorld} from '../../scripts/bench/launchWorld';

const CAP = appConfig.repository.invitationsPerDay;
const BUYERS = CAP + 10;

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

test('the launch day sends the cap and queues the rest; the next day sends them; none past the cap by GitHub', () => {
  expect(figures.perDay[0]).toMatchObject({invitationsSent: CAP, queued: BUYERS - CAP});
  expect(figures.perDay[1]).toMatchObject({queued: 0});
  expect(figures.refusedForCap).toBe(0);
  expect(figures.mostInADay).toBe(CAP);
});

test("buyers who renamed (one while waiting in the queue) are invited and shown by today's login; no grant fails", () => {
  expect(figures.renames.renamed).toBeGreaterThan(0);
  expect(figures.renames.shownCurrent).toBe(figures.renames.renamed);
  expect(Object.keys(figures.endStates).filter((state) => state.startsWith('grant'))).toEqual([]);
});

test('buyers who move their seat keep one account on the repository, and a move past the limit is refused with 429', () => {
  expect(figures.seatMoves.moves).toBeGreaterThan(figures.seatMoves.buyers);
  expect(figures.seatMoves.refusedAtLimit).toBeGreaterThan(0);
  expect(figures.seatMoves.wrongRefusals).toEqual([]);
  expect(figures.seatMoves.oldAccountsKept).toEqual([]);
});

test("the worker's guarantees hold, and the bench reports every goal met", () => {
  expect(figures.guarantees).toEqual({onePurchasePerSession: [], untouchedCollaborators: [], onlyBuyersInvited: []});
  expect(missedGoals(figures)).toEqual([]);
});
