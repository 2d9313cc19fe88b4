/**
 * The launch `npm run bench:launch` simulates, and the figures it reads off it (the CLI prints
 * them; test/worker/launchBench.test.ts runs it small). In a LaunchWorld:
 * - the launch: `buyers` paid checkouts as fast as the worker takes them (a few minutes of real
 *   time, so within the hour), each buyer then asking for access with a GitHub account of their
 *   own and downloading the code through a download link;
 * - the days after, an hour at a time: the world's clock moves on, the cron runs as Cloudflare
 *   would run it, and buyers act on their invitations: most accept, some rename their account
 *   first (after the invitation, or while it waits in the queue), some let it expire and see that
 *   on their dashboard.
 * Buyers buy either plan, three in four the featured one, which grants two repositories, the
 * kit's and the prompts, and includes updates; the rest the one below, the kit's alone. With
 * `teams`, team purchases are spread through the launch among the single buyers (the worker built
 * with the plans sold for teams): each owner pays for `teamSize` seats, takes the first like a
 * buyer and gives the others, most by GitHub username, some by e-mail (the member joins through the
 * link and asks for access); every seat must end invited or accepted on every repository of the
 * plan, through the same lines and caps as the single buyers'. Each
 * repository has its own invitations, queue and cap, and a buyer accepts the prompts' invitation
 * once they have accepted the kit's. Then every buyer's end state on each repository their plan
 * grants, GitHub's count of invitations to each, and the worker's guarantees: among them, that each
 * repository's line is first come, first served across purchases and seats, whatever else a
 * purchase holds.
 */
import type Stripe from 'stripe';
import {appConfig, TEAM_LINK_FRAGMENT} from '../../src/config';
import {API_PATHS, type AccessStatus, type DownloadLink, type TeamMemberAdded} from '../../src/config/api';
import {INVITATION_LIFETIME_MS} from '../local/githubApi';
import {createHmac} from 'node:crypto';
import {extraRepositoryKeys, featuredPlan} from '../../src/config/plans';
import type {Plan as ProductPlan} from '../../src/config/types';
import {LOCAL_GITHUB_WEBHOOK_SECRET} from '../local/githubApi';
import {releaseDelivery} from '../local/release';
import {stripeEvent} from '../local/stripeApi';
import {SITE_ORIGIN} from '../support/workerRuntime';
import {workerdCpu} from '../support/processCpu';
import {BENCH_REPOSITORIES, type LaunchWorld} from './launchWorld';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** The cron runs every 5 minutes (worker/wrangler.jsonc): 12 runs an hour. */
const CRON_RUNS_PER_HOUR = 12;
const CAP = appConfig.repository.invitationsPerDay;
/** A purchase's own seat, the single buyer's or the team owner's (the worker's `OWNER_SEAT`). */
const OWNER_SEAT = 1;

export interface LaunchOptions {
  buyers: number;
  /**
   * Team purchases beside the single buyers, spread through the launch (0 by default). The world's
   * worker must sell the plans for teams of `teamSize` seats (scripts/support/teamPlans.ts).
   */
  teams?: number;
  /** Seats each team buys: the owner's and `teamSize - 1` given to members (5 by default). */
  teamSize?: number;
  /** Simulated days after the launch; by default, until the queue has drained and a week more. */
  days?: number;
  /** Buyers going through checkout at once during the launch. */
  concurrency?: number;
  /** Told of progress, for the terminal. */
  progress?: (line: string) => void;
}

type Plan = 'accept' | 'move seat' | 'rename, then accept' | 'rename while queued' | 'let expire';

/**
 * What each buyer does with their invitation: half accept, a tenth accept and then move their
 * seat to other accounts until the config's limit refuses them, a fifth rename, a fifth never accept.
 */
function planOf(index: number): Plan {
  const tenth = index % 10;
  if (tenth < 5) return 'accept';
  if (tenth === 5) return 'move seat';
  if (tenth === 6) return 'rename, then accept';
  if (tenth === 7) return 'rename while queued';
  return 'let expire';
}

/** Which plan the buyer pays for: one in four the plan below the featured one. */
function boughtOf(index: number, featured: ProductPlan): ProductPlan {
  const below = appConfig.plans.find((plan) => plan.id !== featured.id && plan.price < featured.price);
  return index % 4 === 2 && below ? below : featured;
}

/**
 * What a member does with the invitation the owner's seat gave: most accept, some rename their
 * account first (after the invitation, or while it waits in the queue). None lets it expire or
 * moves the seat: a member named by username has no account here and no download, and the seat is
 * the owner's to move.
 */
function memberPlanOf(index: number): Plan {
  const fifth = index % 5;
  if (fifth === 1) return 'rename, then accept';
  if (fifth === 3) return 'rename while queued';
  return 'accept';
}

/**
 * One seat's holder: a single buyer, a team's owner (who paid and holds its first seat) or a
 * member the owner gave a seat to.
 */
interface Buyer {
  index: number;
  role: 'buyer' | 'owner' | 'member';
  /** The seat of the purchase held: the buyer's own (1), or the one the owner's gift answered. */
  seat: number;
  /**
   * Whether the holder has an account here (an ID token): buyers, owners and members who joined by
   * e-mail. A member named by GitHub username has none: no dashboard, no download.
   */
  signsIn: boolean;
  /** A member: given the seat by e-mail (joins through the link), else by GitHub username. */
  byEmail?: boolean;
  plan: Plan;
  /** The plan paid for, and the repositories (by key) it grants: 'kit' first. */
  bought: ProductPlan;
  repositories: string[];
  uid: string;
  email: string;
  token: string;
  /** When `token` was signed (real time): Firebase's ID tokens last an hour, and clients refresh them. */
  signedInAt: number;
  githubId: number;
  login: string;
  sessionId?: string;
  /** ms from the paid checkout's webhook to the downloaded archive (real time). */
  paymentToDownloadMs?: number;
  invitationId?: number;
  invitedAt?: number;
  renamed: boolean;
  accepted: boolean;
  /** Accounts the buyer moved the seat away from, and when they last accepted an invitation. */
  movedFrom: {login: string; id: number}[];
  acceptedAt?: number;
  nextAccount?: {login: string; id: number};
  /** The answer to a move past the limit: must be 429 SWAP_LIMIT. */
  refusedMove?: string;
  /** The dashboard's answer after the buyer accepted, or after the invitation expired. */
  seen?: AccessStatus;
}

/** One simulated day on one repository (`repository`: its key, 'kit' or the plan's extra key). */
export interface DayFigures {
  day: number;
  repository: string;
  invitationsSent: number;
  /** Grants waiting in the invitation queue at the day's end. */
  queued: number;
  /** Open invitations (not accepted, not expired) on GitHub at the day's end. */
  open: number;
  expired: number;
  collaborators: number;
}

export interface LaunchFigures {
  /** Single buyers (a paid checkout of one seat each). */
  buyers: number;
  /**
   * The team purchases: how many, of how many seats each, by plan name; the members given a seat by
   * e-mail (the rest by GitHub username); and the seats lost among theirs (also in `lost`).
   */
  teams: {count: number; size: number; plans: Record<string, number>; byEmail: number; seatsLost: number};
  /** Every seat: the buyers' and the teams' (owners' and members'). */
  seats: number;
  days: number;
  launchSeconds: number;
  paymentToDownloadMs: {median: number; p99: number};
  /** Each day's figures, one row per repository. */
  perDay: DayFigures[];
  /**
   * How each seat (a buyer's, or a team's) ends on each repository (by key): accepted, invited
   * (open), expired, queued, failed (with the reason), …
   */
  endStates: Record<string, Record<string, number>>;
  /**
   * Seats with no accepted or open invitation to a repository and no download of it that works
   * (a member named by username has no download): must be 0.
   */
  lost: string[];
  /** Buyers and team owners whose download at the launch did not work: must be 0 (instant access). */
  launchDownloadsFailed: number;
  /** Every answer of 500 or more, and every cron run that threw: must be none. */
  fiveHundreds: string[];
  /** By repository key: invitations GitHub refused for its cap, and the most it created in any 24 hours. */
  refusedForCap: Record<string, number>;
  mostInADay: Record<string, number>;
  /** Content-creating requests GitHub refused for its secondary limits. */
  secondaryLimitRefusals: number;
  cronRuns: number;
  /**
   * workerd's CPU time per cron run (ms; the worker and Miniflare's D1 together, so more than
   * Cloudflare counts), by what the run did: sent a batch of the release's e-mails, called GitHub or
   * Mailgun otherwise, or found nothing to do; and the baseline measured in the same run, a request
   * that does nothing (`GET /api`). Null where it cannot be read (not Linux).
   */
  cronCpuMs: CpuFigures | null;
  /**
   * The release published after the launch: the buyers it e-mails, and those who did not get the
   * e-mail for their plan exactly once (the release, or without updates the note that it exists).
   */
  release: {recipients: number; batches: number; notOnce: string[]};
  /** Renamed buyers whose dashboard, after they accepted, showed their login of today. */
  renames: {renamed: number; shownCurrent: number};
  /**
   * Buyers who moved their seat: how many moves the worker took, how many it turned away for the
   * day's cap (429 INVITATION_CAP) or for GitHub's secondary limit (429 RATE_LIMITED), the seat
   * unmoved and the buyer trying again, how many refused past the limit
   * (with the wrong answers listed), and accounts moved away from that are still on a repository.
   */
  seatMoves: {
    buyers: number;
    moves: number;
    deferredForCap: number;
    deferredForRateLimit: number;
    refusedAtLimit: number;
    wrongRefusals: string[];
    oldAccountsKept: string[];
  };
  /** Buyers who let their invitation expire and whose dashboard says so. */
  expiredShown: {letExpire: number; expiredInvitation: number; shownExpired: number};
  /** How many single buyers paid for each plan, by its name. */
  plans: Record<string, number>;
  /**
   * Each repository's line, by key: how many places grants took in it (a grant is one seat's, of a
   * buyer's purchase or a team's), and those invited before a grant that took its place earlier and
   * still waited (must be none: first come, first served across purchases and seats). The worker's
   * line orders its places by (`grants.waiting_at`, `grants.id`): a kit grant's `waiting_at` is when
   * its seat's request first found the day's invitations spent (a buyer's Request Access, an
   * owner's gift of a seat by username, a member's own request after joining by e-mail), not when the
   * purchase paid; an extra repository's is its `queued_at`, when the seat's reconcile created it.
   * `teamSeats`: of the places, those of a team's seat (the owner's or a member's).
   */
  lines: Record<string, {waited: number; teamSeats: number; outOfTurn: string[]}>;
  /**
   * The kit's line as callers saw it, independent of the worker's own record: of the requests
   * for a seat's kit access that queued (202: a buyer's or an owner's Request Access, an owner's gift
   * by username), those whose invitation came after one of a request answered before it was even
   * sent (must be none: a team does not jump ahead of a buyer who asked before it, nor a buyer a team).
   */
  askedOrder: {queued: number; outOfTurn: string[]};
  /** The worker's guarantees under load: each is a list of what broke it (must be empty). */
  guarantees: {
    onePurchasePerSession: string[];
    untouchedCollaborators: string[];
    onlyBuyersInvited: string[];
    /** Invitations to a repository the plan of the buyer (or of the member's team) does not grant. */
    onlyWhatThePlanGrants: string[];
  };
}

/** CPU time per cron run by what it did, and the baseline. */
export interface CpuFigures {
  release: Spread;
  busy: Spread;
  idle: Spread;
  baseline: Spread;
}

interface Spread {
  runs: number;
  median: number;
  p99: number;
  max: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {runs: sorted.length, median: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN};
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `work` on every item, `concurrency` at a time. */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({length: Math.min(concurrency, items.length)}, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Accounts on the repository before the launch that the worker never invited: the seller's own. */
const SELLERS_OWN = ['seller-cofounder', 'seller-contractor'];

export async function simulateLaunch(world: LaunchWorld, options: LaunchOptions): Promise<LaunchFigures> {
  const {worker, github, stripe, mailgun} = world;
  const progress = options.progress ?? (() => {});
  const teamCount = options.teams ?? 0;
  const teamSize = options.teamSize ?? 5;
  // Each seat move (a tenth of the buyers and owners, up to the limit each) is one more invitation,
  // and so is each re-send of an expired one (two tenths never accept); a member's seat is one.
  const {maxUsernameChanges, resendsAfterExpiry} = appConfig.repository;
  const invitations =
    (options.buyers + teamCount) * (1 + maxUsernameChanges / 10 + (2 / 10) * resendsAfterExpiry) +
    teamCount * (teamSize - 1);
  const days = options.days ?? Math.ceil(invitations / CAP) + 8;
  const fiveHundreds: string[] = [];
  const featured = featuredPlan();

  for (const login of SELLERS_OWN) {
    github.addUser(login);
    github.collaborators.add(login.toLowerCase());
  }
  const untouched = [...github.collaborators];

  /** A call to the worker; a 5xx is recorded, whoever made it. */
  /**
   * The buyer's ID token, signed again when it is 50 minutes old, as the Firebase SDK refreshes it
   * before its hour ends: a 1,000-buyer run lasts longer than one token.
   */
  async function tokenOf(buyer: Buyer): Promise<string> {
    if (!buyer.signsIn) throw new Error(`${buyer.uid} has no account here to sign in with`);
    if (Date.now() - buyer.signedInAt > 50 * 60_000) {
      buyer.token = await world.signIn({uid: buyer.uid, email: buyer.email});
      buyer.signedInAt = Date.now();
    }
    return buyer.token;
  }

  async function call(path: string, init: RequestInit & {token?: string; ip?: string; json?: unknown} = {}) {
    const {token, ip, json, ...rest} = init;
    const response = await worker.fetch(path, {
      method: json === undefined ? 'GET' : 'POST',
      ...rest,
      headers: {
        ...(json !== undefined && {'content-type': 'application/json'}),
        ...(token && {authorization: `Bearer ${token}`}),
        ...(ip && {'cf-connecting-ip': ip}),
        ...(rest.headers as Record<string, string>),
      },
      body: json === undefined ? rest.body : JSON.stringify(json),
    });
    if (response.status >= 500)
      fiveHundreds.push(
        `${rest.method ?? (json === undefined ? 'GET' : 'POST')} ${path.split('/').slice(0, 2).join('/')} → ${response.status}: ${(await response.clone().text()).slice(0, 200)}`,
      );
    return response;
  }
  const expect = async (response: Response, statuses: number[], what: string) => {
    if (!statuses.includes(response.status)) throw new Error(`${what}: ${response.status} ${await response.text()}`);
    return response;
  };

  /** The buyer downloads the code of a repository (by key: the kit's by default) through a download link. */
  async function download(buyer: Buyer, repository = 'kit'): Promise<boolean> {
    const linkAnswer = await call(API_PATHS.downloadLink, {
      token: await tokenOf(buyer),
      json: repository === 'kit' ? {} : {repository},
    });
    if (linkAnswer.status !== 200) return false;
    const link = (await linkAnswer.json()) as DownloadLink;
    const archive = await call(link.path);
    return archive.status === 200 && (await archive.arrayBuffer()).byteLength > 0;
  }

  // The launch: every buyer pays, asks for access and downloads, `concurrency` at a time; each
  // team's owner too, and then gives the team's other seats.
  const buyers: Buyer[] = [];
  /** A seat's holder with a GitHub account of their own; one who signs in has an ID token too. */
  async function holder(
    index: number,
    uid: string,
    role: Buyer['role'],
    plan: Plan,
    bought: ProductPlan,
    byEmail = false,
  ) {
    const email = `${uid}@example.com`;
    const account = github.addUser(`${uid}-gh`);
    const signsIn = role !== 'member' || byEmail;
    const made: Buyer = {
      index,
      role,
      seat: OWNER_SEAT,
      signsIn,
      ...(role === 'member' && {byEmail}),
      plan,
      bought,
      repositories: ['kit', ...extraRepositoryKeys(bought)],
      uid,
      email,
      token: signsIn ? await world.signIn({uid, email}) : '',
      signedInAt: Date.now(),
      githubId: account.id,
      login: account.login,
      renamed: false,
      accepted: false,
      movedFrom: [],
    };
    buyers.push(made);
    return made;
  }
  for (let index = 0; index < options.buyers; index++)
    await holder(index, `launch-buyer-${index}`, 'buyer', planOf(index), boughtOf(index, featured));
  /**
   * The teams, each an owner and its members, placed among the single buyers so that their
   * purchases are spread through the launch: team t pays after buyer ⌊(t + 1)·buyers / (teams + 1)⌋.
   * Owners and members are numbered after the buyers (their behaviour, plan, address follow).
   */
  const teams: {owner: Buyer; members: Buyer[]}[] = [];
  for (let t = 0; t < teamCount; t++) {
    // Owners take the numbers right after the buyers', so that their plans and behaviours vary as
    // the buyers' do; the members theirs after every owner's.
    const index = options.buyers + t;
    const bought = boughtOf(index, featured);
    const owner = await holder(index, `launch-team-${t}-owner`, 'owner', planOf(index), bought);
    const members: Buyer[] = [];
    for (let m = 1; m < teamSize; m++) {
      const at = options.buyers + teamCount + t * (teamSize - 1) + m - 1;
      // One member in three of every other team is given the seat by e-mail: the link's way, joined
      // and asked for by the member, beside the owner's naming of an account.
      const byEmail = t % 2 === 1 && m % 3 === 1;
      members.push(await holder(at, `launch-team-${t}-member-${m}`, 'member', memberPlanOf(at), bought, byEmail));
    }
    teams.push({owner, members});
  }
  const single = buyers.filter((buyer) => buyer.role === 'buyer');
  const launchOrder: (Buyer | (typeof teams)[number])[] = [...single];
  for (let t = teamCount - 1; t >= 0; t--)
    launchOrder.splice(Math.floor(((t + 1) * single.length) / (teamCount + 1)), 0, teams[t]!);

  /**
   * Each queued request for a seat's kit access, as its caller saw it (real time): when it was sent
   * and answered, and how many invitations GitHub had created by the answer (its invitation comes
   * after: it waited).
   */
  const askedQueued: {holder: Buyer; sent: number; answered: number; seenAt: number}[] = [];
  /** A request for a seat's kit access, 200 or 202; one that queued is noted for the caller's order. */
  async function asked(holder: Buyer, request: () => Promise<Response>, what: string) {
    const sent = performance.now();
    const answer = await expect(await request(), [200, 202], what);
    if (answer.status === 202)
      askedQueued.push({holder, sent, answered: performance.now(), seenAt: world.invitationsCreated.length});
    return answer;
  }

  /** The buyer (or a team's owner, for `seats`) pays: checkout and Stripe's webhook. Answers when it paid (real time). */
  async function pay(buyer: Buyer, seats?: number): Promise<number> {
    const ip = `127.201.${Math.floor(buyer.index / 250) % 250}.${buyer.index % 250}`;
    const checkout = await expect(
      await call(API_PATHS.createCheckoutSession, {
        token: await tokenOf(buyer),
        ip,
        json: {
          priceId: buyer.bought.priceId.test,
          successUrl: `${SITE_ORIGIN}/success`,
          cancelUrl: `${SITE_ORIGIN}/`,
          email: buyer.email,
          ...(seats !== undefined && {seats}),
        },
      }),
      [200],
      'checkout',
    );
    const sessionId = /cs_test_\w+/.exec(((await checkout.json()) as {url: string}).url)![0];
    buyer.sessionId = sessionId;
    const session = stripe.complete(sessionId, {email: buyer.email, paid: true});
    const payload = JSON.stringify(stripeEvent('checkout.session.completed', session as Stripe.Checkout.Session));
    const deliver = () =>
      call(API_PATHS.stripeWebhook, {
        method: 'POST',
        body: payload,
        headers: {'content-type': 'application/json', 'stripe-signature': world.signWebhook(payload)},
      });
    await expect(await deliver(), [200], 'webhook');
    const paidAt = performance.now();
    // Stripe delivers an event again when an answer is lost: one purchase all the same.
    if (buyer.index % 10 === 3) await expect(await deliver(), [200], 'repeated webhook');
    return paidAt;
  }

  /** The holder asks for access with their own account: a buyer, an owner, a member who joined by e-mail. */
  const askForAccess = (holder: Buyer, what: string) =>
    asked(
      holder,
      async () =>
        call(API_PATHS.addUserToRepo, {
          token: await tokenOf(holder),
          json: {username: holder.login, userId: holder.uid},
        }),
      what,
    );

  /** The buyer (or owner) asks for access with their own account, and downloads the code. */
  async function takeOwnSeat(buyer: Buyer, paidAt: number) {
    await askForAccess(buyer, 'access');
    if (await download(buyer)) buyer.paymentToDownloadMs = performance.now() - paidAt;
  }

  /**
   * A call of the owner's that the worker may refuse for its limit of 10 a minute on access
   * requests (`access:<uid>`): a team of more than 10 seats waits for the next minute, as an owner
   * told "wait a moment" would.
   */
  async function withinLimit(request: () => Promise<Response>): Promise<Response> {
    for (;;) {
      const answer = await request();
      if (answer.status !== 429) return answer;
      const {code} = (await answer.clone().json()) as {code?: string};
      if (code !== 'RATE_LIMITED') return answer;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000));
    }
  }

  /** The owner gives a member their seat: by GitHub username, or by e-mail, the member then joining and asking. */
  async function giveSeat(owner: Buyer, member: Buyer) {
    member.sessionId = owner.sessionId;
    const give = async (json: unknown) =>
      withinLimit(async () => call(API_PATHS.addTeamMember, {token: await tokenOf(owner), json}));
    if (!member.byEmail) {
      const answer = await asked(member, () => give({username: member.login}), 'team seat by username');
      member.seat = ((await answer.json()) as TeamMemberAdded).seat;
      return;
    }
    const invited = await expect(await give({email: member.email}), [200], 'team seat by e-mail');
    member.seat = ((await invited.json()) as TeamMemberAdded).seat;
    const mail = mailgun.sent.filter((sent) => sent.fields.to === member.email).at(-1);
    const link = new RegExp(`#${TEAM_LINK_FRAGMENT}=([A-Za-z0-9_-]+)`).exec(mail?.fields.text ?? '');
    if (!link) throw new Error(`No team link was e-mailed to ${member.email}`);
    await expect(
      await call(API_PATHS.joinTeam, {token: await tokenOf(member), json: {token: link[1]}}),
      [200],
      'joining the team',
    );
    await askForAccess(member, "a member's access");
  }

  const launchStarted = Date.now();
  let done = 0;
  await eachLimited(launchOrder, options.concurrency ?? 8, async (purchase) => {
    if ('role' in purchase) await takeOwnSeat(purchase, await pay(purchase));
    else {
      const {owner, members} = purchase;
      await takeOwnSeat(owner, await pay(owner, members.length + 1));
      for (const member of members) await giveSeat(owner, member);
    }
    done += 1;
    if (done % 100 === 0)
      progress(
        `  ${done} purchases paid, their seats asked for and downloaded (${Math.round((Date.now() - launchStarted) / 1000)} s)`,
      );
  });
  const launchSeconds = (Date.now() - launchStarted) / 1000;
  const launchEnd = world.now();

  /**
   * Each grant's place in its repository's line as first seen (`grants.waiting_at`, then its row),
   * read after the launch and after every cron run, with how many invitations GitHub had created
   * by then: the invitation that ends its wait is its account's first to that repository after.
   */
  const places = new Map<
    string,
    {sessionId: string; seat: number; key: string; waitingAt: number; id: number; seenAt: number}
  >();
  const waitingGrants = worker.db.prepared<{
    session_id: string;
    seat: number;
    repository_key: string;
    waiting_at: number;
    id: number;
  }>(
    `SELECT session_id, seat, repository_key, waiting_at, id FROM grants WHERE status = 'queued' AND waiting_at IS NOT NULL`,
  );
  /**
   * The place each grant waits in now, by grant. A grant that left the line and comes back (a
   * re-send GitHub did not take) takes a new place. Its `waiting_at` is kept on the simulated
   * clock: the world's hours move every time column of D1 back (launchWorld.ts), by as much as the
   * simulated clock is ahead of the real one.
   */
  const waitingIn = new Map<string, string>();
  async function notePlaces() {
    const now = new Set<string>();
    for (const row of await waitingGrants()) {
      const grant = `${row.session_id} ${row.seat} ${row.repository_key}`;
      now.add(grant);
      if (waitingIn.has(grant)) continue;
      const place = `${grant} ${places.size}`;
      waitingIn.set(grant, place);
      places.set(place, {
        sessionId: row.session_id,
        seat: row.seat,
        key: row.repository_key,
        waitingAt: row.waiting_at + world.elapsed(),
        id: row.id,
        seenAt: world.invitationsCreated.length,
      });
    }
    for (const grant of [...waitingIn.keys()]) if (!now.has(grant)) waitingIn.delete(grant);
  }
  await notePlaces();

  // A release, published the hour after the launch: each buyer must get its e-mail once, in batches
  // the cron sends: the release where the plan includes updates, else the note that it exists.
  const release = releaseDelivery({
    tag: 'v1.1.0',
    name: 'Version 1.1',
    notes: '## What changed\n\n- **Faster** builds.\n- A [new guide](https://example.com/guide).',
  });
  const releasePayload = JSON.stringify(release);
  const announced = await expect(
    await call(API_PATHS.githubWebhook, {
      method: 'POST',
      body: releasePayload,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'release',
        'x-github-delivery': `launch-release-${release.release.id}`,
        'x-hub-signature-256': `sha256=${createHmac('sha256', LOCAL_GITHUB_WEBHOOK_SECRET).update(releasePayload).digest('hex')}`,
      },
    }),
    [200],
    'release webhook',
  );
  const releaseRecipients = ((await announced.json()) as {recipients?: number}).recipients ?? 0;

  let cronRuns = 0;
  const readCpu = workerdCpu();
  type Kind = 'release' | 'busy' | 'idle';
  const cronCpu: {ms: number; kind: Kind}[] = [];
  /** workerd's CPU milliseconds for a piece of work, or NaN where it cannot be read. */
  async function measured(work: () => Promise<void>): Promise<number> {
    const before = readCpu?.();
    await work();
    return before === undefined ? NaN : (readCpu!() - before) / 1e6;
  }
  // The baseline, in the same run: what an invocation that does nothing costs workerd here.
  const baselineCpu: number[] = [];
  for (let run = 0; run < 30; run++)
    baselineCpu.push(await measured(async () => void (await (await call('/api')).arrayBuffer())));

  async function cron() {
    cronRuns += 1;
    const calls = github.requests.length + mailgun.sent.length;
    const releaseBatches = mailgun.sent.filter((mail) => mail.fields['o:tag'] === 'release').length;
    const ms = await measured(async () => {
      try {
        await worker.scheduled();
      } catch (err) {
        fiveHundreds.push(`cron run ${cronRuns} threw: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    const kind: Kind =
      mailgun.sent.filter((mail) => mail.fields['o:tag'] === 'release').length > releaseBatches
        ? 'release'
        : github.requests.length + mailgun.sent.length > calls
          ? 'busy'
          : 'idle';
    cronCpu.push({ms, kind});
    await notePlaces();
  }

  async function dashboard(buyer: Buyer): Promise<AccessStatus | undefined> {
    const response = await call(API_PATHS.accessStatus, {token: await tokenOf(buyer)});
    return response.status === 200 ? ((await response.json()) as AccessStatus) : undefined;
  }

  // Within 4 days; a buyer about to move their seat accepts within 2 hours.
  const acceptDelay = (buyer: Buyer) => (buyer.plan === 'move seat' ? 2 : 1 + ((buyer.index * 37) % 96)) * HOUR_MS;
  function rename(buyer: Buyer) {
    const newLogin = `${buyer.login}-renamed`;
    github.rename(buyer.login, newLogin);
    buyer.login = newLogin;
    buyer.renamed = true;
  }

  const MAX_MOVES = appConfig.repository.maxUsernameChanges;
  const MOVE_AFTER_MS = 12 * HOUR_MS;
  let movesDeferredForCap = 0;
  let movesDeferredForRateLimit = 0;
  /**
   * Twelve hours after accepting, a 'move seat' buyer points the seat at a new account of theirs; once the
   * config's limit of moves is reached, one more move must be refused (429 SWAP_LIMIT).
   */
  async function moveSeat(buyer: Buyer) {
    if (buyer.movedFrom.length >= MAX_MOVES) {
      if (buyer.refusedMove !== undefined) return;
      const spare = github.addUser(`${buyer.uid}-gh-extra`);
      const answer = await call(API_PATHS.addUserToRepo, {
        token: await tokenOf(buyer),
        json: {username: spare.login, userId: buyer.uid},
      });
      const {code} = (await answer.json().catch(() => ({}))) as {code?: string};
      buyer.refusedMove = `${answer.status} ${code ?? ''}`.trim();
      return;
    }
    // The account made for a move the cap turned away is the one tried again.
    const next = (buyer.nextAccount ??= github.addUser(`${buyer.uid}-gh-${buyer.movedFrom.length + 2}`));
    const answer = await expect(
      await call(API_PATHS.addUserToRepo, {
        token: await tokenOf(buyer),
        json: {username: next.login, userId: buyer.uid},
      }),
      [200, 202, 429],
      'seat move',
    );
    if (answer.status === 429) {
      // The day's invitations are spent, or GitHub's secondary limit asks for a pause: the seat
      // stays where it is, and the buyer tries again later.
      const {code} = (await answer.json()) as {code?: string};
      if (code === 'INVITATION_CAP') movesDeferredForCap += 1;
      else if (code === 'RATE_LIMITED') movesDeferredForRateLimit += 1;
      else throw new Error(`seat move: 429 ${code}`);
      return;
    }
    buyer.movedFrom.push({login: buyer.login, id: buyer.githubId});
    buyer.nextAccount = undefined;
    buyer.login = next.login;
    buyer.githubId = next.id;
    buyer.accepted = false;
    buyer.invitedAt = undefined;
    buyer.invitationId = undefined;
  }

  const [kit, ...extras] = BENCH_REPOSITORIES;
  /** A repository's invitations on the stand-in, by the invited account's id. */
  const invitationsById = (repository: string) =>
    new Map(
      [...world.recordOf(repository).invitations.values()].map((invitation) => [invitation.invitee.id, invitation]),
    );

  /** What the buyers do at this hour of the simulated clock. */
  async function buyersAct(at: number) {
    const openById = invitationsById(kit!.name);
    const extraOpenById = extras.map(({name}) => invitationsById(name));
    for (const buyer of buyers) {
      // A buyer who accepted the kit's invitation accepts the other repositories' as they come.
      if (buyer.accepted)
        for (const open of extraOpenById) {
          const extra = open.get(buyer.githubId);
          if (extra && !github.isExpired(extra)) github.accept(extra.id);
        }
      const invitation = openById.get(buyer.githubId);
      if (invitation && invitation.id !== buyer.invitationId) {
        buyer.invitationId = invitation.id;
        buyer.invitedAt = at;
      }
      if (buyer.plan === 'rename while queued' && !buyer.renamed && at >= launchEnd + 2 * HOUR_MS) rename(buyer);
      if (buyer.plan === 'move seat' && buyer.accepted && at - buyer.acceptedAt! >= MOVE_AFTER_MS)
        await moveSeat(buyer);
      if (buyer.invitedAt === undefined || buyer.accepted) continue;
      const since = at - buyer.invitedAt;
      if (buyer.plan === 'let expire') {
        if (buyer.seen === undefined && since >= INVITATION_LIFETIME_MS + DAY_MS) buyer.seen = await dashboard(buyer);
        continue;
      }
      if (buyer.plan === 'rename, then accept' && !buyer.renamed && since >= acceptDelay(buyer) / 2) rename(buyer);
      if (since < acceptDelay(buyer) || !invitation || github.isExpired(invitation)) continue;
      github.accept(invitation.id);
      buyer.accepted = true;
      buyer.acceptedAt = at;
      if (buyer.signsIn) buyer.seen = await dashboard(buyer);
    }
  }

  const queuedGrants = worker.db.prepared<{repository_key: string; n: number}>(
    `SELECT repository_key, COUNT(*) AS n FROM grants WHERE status = 'queued' GROUP BY repository_key`,
  );
  /** Who was on each repository before the launch: the seller's own on the kit's, the owner on an extra one. */
  const before = new Map(BENCH_REPOSITORIES.map(({name}) => [name, world.recordOf(name).collaborators.size]));
  const perDay: DayFigures[] = [];
  async function closeDay(day: number) {
    // Day 0 is the launch; day d the 24 hours that end now.
    const start = day === 0 ? -Infinity : world.now() - DAY_MS;
    const queued = new Map((await queuedGrants()).map((row) => [row.repository_key, row.n]));
    for (const {key, name} of BENCH_REPOSITORIES) {
      const record = world.recordOf(name);
      const invitations = [...record.invitations.values()];
      perDay.push({
        day,
        repository: key,
        invitationsSent: world.invitationsCreated.filter(
          ({at, repository}) => repository === name && at > start && at <= world.now(),
        ).length,
        queued: queued.get(key) ?? 0,
        open: invitations.filter((invitation) => !github.isExpired(invitation)).length,
        expired: invitations.filter((invitation) => github.isExpired(invitation)).length,
        collaborators: record.collaborators.size - before.get(name)!,
      });
      const last = perDay.at(-1)!;
      progress(
        `  day ${day}, ${key}: ${last.invitationsSent} invitations sent, ${last.queued} queued, ${last.open} open, ${last.expired} expired, ${last.collaborators} accepted`,
      );
    }
  }

  await closeDay(0);
  for (let day = 1; day <= days; day++) {
    for (let hour = 0; hour < 24; hour++) {
      await world.advance(HOUR_MS);
      // An hour holds 12 cron runs. Between two of them only time passes, and the world's clock
      // moves by the hour: a run that made no call to GitHub or Mailgun changed nothing the next
      // run would see differently, so the hour's remaining runs are skipped as equivalent.
      for (let run = 0; run < CRON_RUNS_PER_HOUR; run++) {
        const before = github.requests.length + mailgun.sent.length;
        await cron();
        if (github.requests.length + mailgun.sent.length === before) break;
      }
      await buyersAct(world.now());
    }
    await closeDay(day);
  }
  // The last hour's moves: the cron that follows them invites the new accounts and removes the old.
  for (let run = 0; run < CRON_RUNS_PER_HOUR; run++) await cron();

  // How every buyer ends, on each repository.
  const endStates: Record<string, Record<string, number>> = {};
  const lost: string[] = [];
  const grants = new Map(
    (
      await worker.db.all<{
        session_id: string;
        seat: number;
        repository_key: string;
        status: string;
        detail: string | null;
      }>('SELECT session_id, seat, repository_key, status, detail FROM grants')
    ).map((grant) => [`${grant.session_id} ${grant.seat} ${grant.repository_key}`, grant]),
  );
  const mostInADay: Record<string, number> = {};
  const refusedForCap: Record<string, number> = {};
  for (const {key, name} of BENCH_REPOSITORIES) {
    const record = world.recordOf(name);
    const states: Record<string, number> = (endStates[key] = {});
    const invitationOf = invitationsById(name);
    for (const buyer of buyers.filter(({repositories}) => repositories.includes(key))) {
      const invitation = invitationOf.get(buyer.githubId);
      const grant = grants.get(`${buyer.sessionId ?? ''} ${buyer.seat} ${key}`);
      let state: string;
      if (record.collaborators.has(buyer.login.toLowerCase())) state = 'accepted';
      else if (invitation && !github.isExpired(invitation)) state = 'invited, not accepted yet';
      else if (invitation) state = 'invitation expired';
      else if (grant?.status === 'queued') state = 'still queued';
      else state = `grant ${grant?.status ?? 'missing'}${grant?.detail ? ` (${grant.detail})` : ''}`;
      states[state] = (states[state] ?? 0) + 1;
      const hasAccess = state === 'accepted' || state === 'invited, not accepted yet';
      if (!hasAccess && !buyer.signsIn) lost.push(`${buyer.uid}: ${key} ${state}, and no download (named by username)`);
      else if (!hasAccess && !(await download(buyer, key)))
        lost.push(`${buyer.uid}: ${key} ${state}, and its download does not work`);
    }
    // GitHub's count: the most invitations it created to the repository in any 24 hours.
    const times = world.invitationsCreated.filter(({repository}) => repository === name).map(({at}) => at);
    mostInADay[key] = 0;
    for (let first = 0, last = 0; last < times.length; last++) {
      while (times[last]! - times[first]! >= DAY_MS) first++;
      mostInADay[key] = Math.max(mostInADay[key], last - first + 1);
    }
    refusedForCap[key] = github.refused.invitationCap.filter((call) => call.includes(`/repos/${name}/`)).length;
  }

  const purchases = await worker.db.all<{session_id: string; n: number}>(
    'SELECT session_id, COUNT(*) AS n FROM purchases GROUP BY session_id',
  );
  /** Who paid: the single buyers and the teams' owners (a member's seat is the owner's purchase). */
  const purchasers = buyers.filter((buyer) => buyer.role !== 'member');
  const buyerSessions = new Set(purchasers.map((buyer) => buyer.sessionId));
  const onePurchasePerSession = [
    ...purchases.filter((row) => row.n !== 1).map((row) => `${row.session_id}: ${row.n} purchases`),
    ...purchases
      .filter((row) => !buyerSessions.has(row.session_id))
      .map((row) => `${row.session_id}: a purchase no buyer paid for`),
    ...(purchases.length === purchasers.length
      ? []
      : [`${purchases.length} purchases for ${purchasers.length} paid sessions`]),
  ];
  const untouchedCollaborators = untouched.flatMap((login) => [
    ...(github.collaborators.has(login) ? [] : [`@${login} is no longer a collaborator`]),
    ...github.requests
      .filter((request) => request.startsWith('DELETE ') && request.toLowerCase().endsWith(`/collaborators/${login}`))
      .map((request) => `${request} (@${login})`),
  ]);
  /** Every account a buyer has had, by its login in lower case: today's, before a rename, and those a seat moved from. */
  const accountsOf = (buyer: Buyer) =>
    [buyer.login, buyer.login.replace(/-renamed$/, ''), ...buyer.movedFrom.map(({login}) => login)].map((login) =>
      login.toLowerCase(),
    );
  const buyerOfLogin = new Map(buyers.flatMap((buyer) => accountsOf(buyer).map((login) => [login, buyer] as const)));
  const onlyBuyersInvited = world.invitationsCreated
    .filter(({login}) => !buyerOfLogin.has(login.toLowerCase()))
    .map(({login}) => `@${login}`);
  const keyOf = new Map(BENCH_REPOSITORIES.map(({key, name}) => [name, key]));
  const onlyWhatThePlanGrants = world.invitationsCreated.flatMap(({login, repository}) => {
    const buyer = buyerOfLogin.get(login.toLowerCase());
    const key = keyOf.get(repository)!;
    return buyer && !buyer.repositories.includes(key)
      ? [`@${login} (${buyer.uid}, ${buyer.bought.name}) invited to the ${key} repository`]
      : [];
  });

  // First come, first served: along each line, by place, the invitations that ended the waits come
  // in GitHub's order of creation. One that comes before an earlier place's was sent out of turn.
  const holderOfSeat = new Map(buyers.map((buyer) => [`${buyer.sessionId} ${buyer.seat}`, buyer]));
  const stillWaiting = new Set(waitingIn.values());
  const lines: LaunchFigures['lines'] = {};
  for (const {key, name} of BENCH_REPOSITORIES) {
    const waited = [...places]
      .map(([place, at]) => ({place, ...at}))
      .filter((place) => place.key === key)
      .sort((a, b) => a.waitingAt - b.waitingAt || a.id - b.id);
    const outOfTurn: string[] = [];
    let latest = {created: -1, uid: ''};
    for (const place of waited) {
      const buyer = holderOfSeat.get(`${place.sessionId} ${place.seat}`)!;
      const accounts = new Set(accountsOf(buyer));
      const index = world.invitationsCreated.findIndex(
        (invitation, at) =>
          at >= place.seenAt && invitation.repository === name && accounts.has(invitation.login.toLowerCase()),
      );
      // Never invited: one that still waits holds back everyone behind it; one that left the line
      // otherwise (its purchase ended) holds back nobody.
      if (index === -1 && !stillWaiting.has(place.place)) continue;
      const created = index === -1 ? Infinity : index;
      if (created < latest.created) outOfTurn.push(`${buyer.uid} was invited before ${latest.uid}, who waited ahead`);
      else latest = {created, uid: buyer.uid};
    }
    const teamSeats = waited.filter((place) => holderOfSeat.get(`${place.sessionId} ${place.seat}`)!.role !== 'buyer');
    lines[key] = {waited: waited.length, teamSeats: teamSeats.length, outOfTurn};
  }

  // The same on the kit's line as the callers saw it, without the worker's record: a request
  // answered (queued) before another was sent came first, and its invitation must not come after.
  // Requests sent alongside each other may go either way.
  const invitedAs = askedQueued.flatMap((request) => {
    const accounts = new Set(accountsOf(request.holder));
    const index = world.invitationsCreated.findIndex(
      (invitation, at) =>
        at >= request.seenAt && invitation.repository === kit!.name && accounts.has(invitation.login.toLowerCase()),
    );
    const waits = grants.get(`${request.holder.sessionId ?? ''} ${request.holder.seat} kit`)?.status === 'queued';
    // As above: one never invited that still waits holds back everyone after it; one that left holds back nobody.
    if (index === -1 && !waits) return [];
    return [{...request, created: index === -1 ? Infinity : index}];
  });
  const byAnswer = [...invitedAs].sort((a, b) => a.answered - b.answered);
  const askedOutOfTurn: string[] = [];
  let ahead: (typeof invitedAs)[number] | undefined;
  let answeredBefore = 0;
  for (const request of [...invitedAs].sort((a, b) => a.sent - b.sent)) {
    for (; answeredBefore < byAnswer.length && byAnswer[answeredBefore]!.answered < request.sent; answeredBefore++) {
      const earlier = byAnswer[answeredBefore]!;
      if (!ahead || earlier.created > ahead.created) ahead = earlier;
    }
    if (ahead && request.created < ahead.created)
      askedOutOfTurn.push(
        `${request.holder.uid} was invited before ${ahead.holder.uid}, whose request had queued before ${request.holder.uid}'s was sent`,
      );
  }

  const movers = buyers.filter((buyer) => buyer.plan === 'move seat');
  const seatMoves = {
    buyers: movers.length,
    moves: movers.reduce((sum, buyer) => sum + buyer.movedFrom.length, 0),
    deferredForCap: movesDeferredForCap,
    deferredForRateLimit: movesDeferredForRateLimit,
    refusedAtLimit: movers.filter((buyer) => buyer.refusedMove === '429 SWAP_LIMIT').length,
    wrongRefusals: movers.flatMap((buyer) =>
      buyer.refusedMove && buyer.refusedMove !== '429 SWAP_LIMIT' ? [`${buyer.uid}: ${buyer.refusedMove}`] : [],
    ),
    oldAccountsKept: BENCH_REPOSITORIES.flatMap(({key, name}) => {
      const record = world.recordOf(name);
      const invitationOf = invitationsById(name);
      return movers.flatMap((buyer) =>
        buyer.movedFrom.flatMap(({login, id}) => [
          ...(record.collaborators.has(login.toLowerCase())
            ? [`@${login} (${buyer.uid}) is still a collaborator on the ${key} repository`]
            : []),
          ...(invitationOf.has(id) && !github.isExpired(invitationOf.get(id)!)
            ? [`@${login} (${buyer.uid}) still has an open invitation to the ${key} repository`]
            : []),
        ]),
      );
    }),
  };
  const letExpire = buyers.filter((buyer) => buyer.plan === 'let expire');
  // Only those who sign in have a dashboard to show their login on.
  const renamed = buyers.filter((buyer) => buyer.renamed && buyer.accepted && buyer.signsIn);
  const downloads = purchasers
    .flatMap((buyer) => (buyer.paymentToDownloadMs === undefined ? [] : [buyer.paymentToDownloadMs]))
    .sort((a, b) => a - b);
  function cpuFigures(): CpuFigures {
    const of = (kind: Kind) => spread(cronCpu.filter((run) => run.kind === kind).map((run) => run.ms));
    return {release: of('release'), busy: of('busy'), idle: of('idle'), baseline: spread(baselineCpu)};
  }
  /**
   * Who did not get the release's e-mail for their plan exactly once: the release itself where the
   * plan includes updates, else the upgrade note (`releases.noticeWithoutUpdates`), or nothing.
   */
  function releaseReach(): LaunchFigures['release'] {
    const batches = mailgun.sent.filter((mail) => mail.fields['o:tag'] === 'release');
    const copies = new Map<string, number>();
    for (const mail of batches)
      for (const recipient of mail.recipients) {
        const copy = `${recipient} ${mail.fields['v:release-audience']}`;
        copies.set(copy, (copies.get(copy) ?? 0) + 1);
      }
    const noted = appConfig.releases.noticeWithoutUpdates === 'upgrade-note';
    // A team's release e-mails go to its owner, once for the purchase: its members get none.
    const notOnce = purchasers.flatMap((buyer) => {
      const owed = {
        updates: buyer.bought.includesUpdates ? 1 : 0,
        upgrade: !buyer.bought.includesUpdates && noted ? 1 : 0,
      };
      return Object.entries(owed).flatMap(([audience, count]) => {
        const got = copies.get(`${buyer.email} ${audience}`) ?? 0;
        return got === count ? [] : [`${buyer.email} (${buyer.bought.name}) got the ${audience} e-mail ${got} times`];
      });
    });
    return {recipients: releaseRecipients, batches: batches.length, notOnce};
  }
  const teamSeats = buyers.filter((buyer) => buyer.role !== 'buyer');
  const teamUids = new Set(teamSeats.map((seat) => `${seat.uid}:`));
  return {
    buyers: single.length,
    teams: {
      count: teams.length,
      size: teamSize,
      plans: Object.fromEntries(
        appConfig.plans.map(({id, name}) => [name, teams.filter(({owner}) => owner.bought.id === id).length]),
      ),
      byEmail: teamSeats.filter((seat) => seat.byEmail).length,
      seatsLost: lost.filter((line) => teamUids.has(line.slice(0, line.indexOf(':') + 1))).length,
    },
    seats: buyers.length,
    days,
    launchSeconds,
    paymentToDownloadMs: {median: percentile(downloads, 50), p99: percentile(downloads, 99)},
    perDay,
    endStates,
    lost,
    launchDownloadsFailed: purchasers.filter((buyer) => buyer.paymentToDownloadMs === undefined).length,
    fiveHundreds,
    refusedForCap,
    mostInADay,
    secondaryLimitRefusals: github.refused.secondaryLimit.length,
    cronRuns,
    cronCpuMs: readCpu ? cpuFigures() : null,
    release: releaseReach(),
    seatMoves,
    renames: {
      renamed: renamed.length,
      shownCurrent: renamed.filter((buyer) => buyer.seen?.username === buyer.login).length,
    },
    expiredShown: {
      letExpire: letExpire.length,
      expiredInvitation: letExpire.filter((buyer) => buyer.seen !== undefined).length,
      shownExpired: letExpire.filter((buyer) => buyer.seen?.expired === true).length,
    },
    plans: Object.fromEntries(
      appConfig.plans.map(({id, name}) => [name, single.filter((buyer) => buyer.bought.id === id).length]),
    ),
    lines,
    askedOrder: {queued: askedQueued.length, outOfTurn: askedOutOfTurn},
    guarantees: {onePurchasePerSession, untouchedCollaborators, onlyBuyersInvited, onlyWhatThePlanGrants},
  };
}

/** The goals a launch must meet, each with what missed it: none when all are met. */
export function missedGoals(figures: LaunchFigures): string[] {
  const missed: string[] = [];
  if (figures.lost.length > 0) missed.push(`${figures.lost.length} seats lost: ${figures.lost.slice(0, 5).join('; ')}`);
  // No buyer here gives GitHub a reason to refuse (no deleted account, no typo): a failed grant is
  // the worker's doing, though the download still serves that buyer.
  const failed = Object.entries(figures.endStates).flatMap(([repository, states]) =>
    Object.entries(states)
      .filter(([state]) => state.startsWith('grant failed'))
      .map(([state, count]) => `${count} ${repository} ${state}`),
  );
  if (failed.length > 0) missed.push(`grants failed: ${failed.join('; ')}`);
  if (figures.launchDownloadsFailed > 0)
    missed.push(`${figures.launchDownloadsFailed} buyers and owners could not download at the launch`);
  if (figures.fiveHundreds.length > 0)
    missed.push(`${figures.fiveHundreds.length} answers of 5xx: ${figures.fiveHundreds.slice(0, 5).join('; ')}`);
  for (const [repository, most] of Object.entries(figures.mostInADay)) {
    const refused = figures.refusedForCap[repository] ?? 0;
    if (refused > 0 || most > CAP)
      missed.push(
        `invitations past the cap of the ${repository} repository: GitHub refused ${refused} for it, and created ${most} in one 24 hours (cap ${CAP})`,
      );
  }
  const {seatMoves} = figures;
  if (seatMoves.wrongRefusals.length > 0)
    missed.push(
      `a move past the limit was not refused with 429 SWAP_LIMIT: ${seatMoves.wrongRefusals.slice(0, 5).join('; ')}`,
    );
  if (seatMoves.oldAccountsKept.length > 0)
    missed.push(`moved seats kept their old account: ${seatMoves.oldAccountsKept.slice(0, 5).join('; ')}`);
  if (figures.release.notOnce.length > 0)
    missed.push(
      `the release did not reach every buyer once, by the e-mail for their plan: ${figures.release.notOnce.slice(0, 5).join('; ')}`,
    );
  for (const [repository, {outOfTurn}] of Object.entries(figures.lines)) {
    if (outOfTurn.length > 0)
      missed.push(
        `the ${repository} repository's line was not first come, first served: ${outOfTurn.slice(0, 5).join('; ')}`,
      );
  }
  if (figures.askedOrder.outOfTurn.length > 0)
    missed.push(
      `the kit's line was not first come, first served as callers asked: ${figures.askedOrder.outOfTurn.slice(0, 5).join('; ')}`,
    );
  for (const [guarantee, broken] of Object.entries(figures.guarantees)) {
    if (broken.length > 0) missed.push(`${guarantee}: ${broken.slice(0, 5).join('; ')}`);
  }
  return missed;
}
