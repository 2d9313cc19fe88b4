/**
 * What each endpoint takes and answers, as zod schemas: the worker validates request bodies and
 * queries with them, the OpenAPI document is written from them (`contract.ts`), and the site's
 * types are inferred from them (`api.ts` re-exports those types). The first message of a failed
 * check is what the caller reads, so each one says what to fix.
 *
 * The site imports only types from this module (`import type`): zod stays out of its bundle.
 */
import {z} from 'zod';
import {appConfig} from './app';
import {
  CHECKOUT_CLAIM_PATTERN,
  CHECKOUT_STATUSES,
  DEFAULT_SALES_PERIOD,
  ERROR_CODES,
  GRANT_STATUSES,
  PAYMENT_STATES,
  PURCHASE_FLAGS,
  PURCHASE_SORTS,
  PURCHASE_STATES,
  REFUND_REASONS,
  REPOSITORY_DIFFERENCE_KINDS,
  SALES_PERIODS,
  SEAT_END_REASON_KEYS,
} from './apiPaths';
import {
  LAUNCH_CODE_LIMITS,
  LAUNCH_CODE_PATTERN,
  LAUNCH_CODE_STATES,
  LAUNCH_CODE_WORDS,
  UPGRADE_CODE_ID_PATTERN,
} from './launchCodes';
import {AFFILIATE_CODE_PATTERN, AFFILIATE_CODE_RULE, COMMISSION_STATES} from './affiliates';

// ---------------------------------------------------------------------------------------------
// Pieces of requests

/** GitHub's rule: 1 to 39 letters, digits or single hyphens, not starting or ending with one. */
export const githubUsername = z
  .string({message: 'GitHub username is required'})
  .trim()
  .min(1, 'GitHub username is required')
  .max(39, 'A GitHub username has at most 39 characters')
  .regex(
    /^[A-Za-z\d](?:[A-Za-z\d]|-(?=[A-Za-z\d]))*$/,
    'A GitHub username has letters, digits and single hyphens between them',
  );

const email = z
  .string({message: 'A valid e-mail address is required'})
  .trim()
  .max(254, 'A valid e-mail address is required')
  .pipe(z.email({message: 'A valid e-mail address is required'}))
  .transform((value) => value.toLowerCase());

/** An affiliate visit's id, as POST /affiliateVisit answered it. */
const referralId = z
  .string({message: 'The referral must be a string'})
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'The referral is not a visit id');

const urlsRequired = 'Success and cancel URLs are required';
const url = z
  .string({message: urlsRequired})
  .max(2048)
  .refine((value) => value.trim() !== '', urlsRequired);

export const checkoutSessionId = z
  .string({message: 'sessionId is required'})
  .regex(/^cs_(test|live)_[A-Za-z0-9]{1,200}$/, 'sessionId is not a Checkout Session id');

export const checkoutClaim = z
  .string({message: 'claim is required: open the link your browser came back from the payment with'})
  .regex(CHECKOUT_CLAIM_PATTERN, 'claim is not a checkout claim');

export const userIdQuery = z.string({message: 'userId is required'}).min(1, 'userId is required').max(128);

// ---------------------------------------------------------------------------------------------
// The buyer's requests

/** POST /createCheckoutSession. `priceId` is one of the config's plans, in either Stripe mode. */
export const checkoutBody = z.object({
  priceId: z
    .string({message: 'Price ID is required'})
    .max(255, 'Price ID is too long')
    .refine((value) => value.trim() !== '', 'Price ID is required'),
  successUrl: url,
  cancelUrl: url,
  // The site leaves it out; other callers may send null.
  email: email.nullish().transform((value) => value ?? undefined),
  /**
   * How many seats, for a plan sold for teams (`Plan.team`); one when left out. The worker holds
   * it to the plan's `maxSeats` and prices it: an amount is never taken from the browser.
   */
  seats: z
    .number({message: 'Seats must be a whole number'})
    .int('Seats must be a whole number')
    .min(1, 'Seats must be at least 1')
    .max(1000, 'Seats must be at most 1000')
    .optional(),
  /**
   * The id of the affiliate visit the browser kept (POST /affiliateVisit), if any. It only names a
   * visit the worker recorded: the worker decides whether it still counts and for whom.
   */
  referral: referralId.nullish().transform((value) => value ?? undefined),
});

/** GET /userHasPaid?userId= */
export const userHasPaidQuery = z.object({userId: userIdQuery});

/** GET /retrieveUserFromCheckoutSession?sessionId=&claim= */
export const checkoutSignInQuery = z.object({sessionId: checkoutSessionId, claim: checkoutClaim});

/**
 * POST /checkoutStatus: the id and the claim Stripe's success URL brought back, in the body (never
 * in a URL that a log would keep). Both are needed, as for the exchange: the id alone tells nothing.
 */
export const checkoutStatusBody = z.object({sessionId: checkoutSessionId, claim: checkoutClaim});

/** POST /createBillingPortal */
export const billingPortalBody = z.object({
  returnUrl: z.string({message: 'Return URL is required'}).min(1, 'Return URL is required').max(2048),
});

/** POST /addUserToRepo */
export const addUserToRepoBody = z.object({
  username: githubUsername,
  userId: z.string({message: 'userId is required'}).min(1, 'userId is required').max(128),
});

/**
 * POST /addTeamMember: the owner of a team purchase gives a free seat to a member, by one of two
 * ways: the member's e-mail (they get a link, sign in with that address and name their GitHub
 * account), or the member's GitHub username (invited at once, as Request Access invites).
 */
export const teamMemberBody = z
  .object({email: email.optional(), username: githubUsername.optional()})
  .refine((body) => (body.email === undefined) !== (body.username === undefined), {
    message: "Give the member's e-mail address or their GitHub username: one of the two",
  });

/** A seat of a team past the owner's own (seat 1): 2 and up. */
const memberSeat = z
  .number({message: 'The seat must be a whole number, 2 or more'})
  .int('The seat must be a whole number, 2 or more')
  .min(2, 'The seat must be a whole number, 2 or more')
  .max(1000, 'The seat must be a whole number, 2 or more');

/** POST /removeTeamMember and POST /resendTeamInvitation: which seat. */
export const teamSeatBody = z.object({seat: memberSeat});

/** POST /joinTeam: the secret of the link a member was e-mailed. */
export const joinTeamBody = z.object({
  token: z
    .string({message: 'The invitation link is incomplete'})
    .regex(/^[A-Za-z0-9_-]{43}$/, 'The invitation link is incomplete: open it from the e-mail again'),
});

/** POST /api/leads: 201 `stored: true` when new, 200 `stored: false` when already on the list. */
export const leadBody = z.object({email});

/**
 * POST /refundPurchase: the buyer's own refund, under the money-back guarantee (`kind`'s default)
 * or as the EU consumer's withdrawal from the contract; `reason`, if they give one, is the
 * seller's to read in the console.
 */
export const refundPurchaseBody = z.object({
  kind: z
    .enum(['guarantee', 'withdrawal'], {message: "kind is either 'guarantee' or 'withdrawal'"})
    .default('guarantee'),
  reason: z.string().trim().max(500, 'The reason is too long: 500 characters at most.').optional(),
});

/** What POST /refundPurchase answers: how much Stripe refunded (cents), in the payment's currency. */
export const refundPurchaseResult = z.object({status: z.literal('refunded'), amount: z.number(), currency: z.string()});

/** A grant's repository key, as the resends name it. */
const grantKey = z
  .string({message: 'key is required: the repository to invite you to again'})
  .trim()
  .min(1, 'key is required: the repository to invite you to again')
  .max(64, 'key is too long');

/**
 * POST /resendInvitation (the buyer's) and POST /admin/purchases/:sessionId/resend (the seller's):
 * the grant whose expired invitation is sent again, by its repository's key (`kit`, the purchase's
 * seat, when none is named; else a key of src/config's `extraRepositories`, checked against the
 * purchase's plan).
 */
const SEAT_RULE = "seat must be a seat number of the purchase, 1 (the buyer's own) or more";
/**
 * POST resend (the console's): `key`, the repository (the kit's unless named); `seat`, a team
 * member's seat (the buyer's own, 1, unless named). A seat whose member no longer holds it is refused.
 */
export const resendBody = z.object({
  key: grantKey.default('kit'),
  seat: z.number({message: SEAT_RULE}).int(SEAT_RULE).min(1, SEAT_RULE).max(1000, SEAT_RULE).default(1),
});

/**
 * POST /downloadLink's body: `repository`, the key (src/config `extraRepositories`) of an extra
 * repository the buyer's plan grants, for its code; absent (or `{}`), the kit's. The route checks
 * it against the plan.
 */
export const downloadLinkBody = z.object({
  repository: z
    .string({message: 'repository must be the key of a repository in your plan'})
    .trim()
    .min(1, 'repository must not be empty')
    .max(64, 'repository is too long')
    .optional(),
});

/** POST /releaseEmails */
export const releaseEmailsBody = z.strictObject(
  {subscribed: z.boolean({message: 'subscribed must be true or false'})},
  {message: 'The body takes only subscribed'},
);

const UPGRADE_CODE_RULE = 'An upgrade code is 3 to 40 letters, digits or dashes';

/**
 * POST /createUpgradeSession. Only the plan to move up to (a config plan's id), or with `addSeats`
 * the plan held now and how many seats to add, and where to come back. Anything else sent along
 * (an amount, the purchase, its plan or seats) is dropped here: the worker finds the purchase, its
 * plan and its seats itself, and never reads an amount or a purchase from the browser.
 */
export const upgradeBody = z.object({
  planId: z.string({message: 'planId is required'}).min(1, 'planId is required').max(64, 'planId is too long'),
  addSeats: z
    .number({message: 'addSeats must be a whole number'})
    .int('addSeats must be a whole number')
    .min(1, 'addSeats must be at least 1')
    .max(1000, 'addSeats must be at most 1000')
    .optional(),
  /**
   * An upgrade code the buyer typed (past buyers only): the worker finds it, checks its limits and
   * takes it off the price itself; one that does not apply is refused with why (409).
   */
  code: z.string({message: UPGRADE_CODE_RULE}).regex(LAUNCH_CODE_PATTERN, UPGRADE_CODE_RULE).optional(),
  successUrl: url,
  cancelUrl: url,
});

/** GET /upgrades?code=: the upgrade code the buyer typed, to price the upgrades with it. */
export const upgradesQuery = z.object({
  code: z.string({message: UPGRADE_CODE_RULE}).regex(LAUNCH_CODE_PATTERN, UPGRADE_CODE_RULE).optional(),
});

/** A body the route does not read (`{}` by the site's client): only its JSON content type counts. */
export const emptyBody = z.object({});

// ---------------------------------------------------------------------------------------------
// The buyer's answers

/** Checkout and the billing portal answer where to send the browser. */
export const urlResponse = z.object({url: z.string()});

/** GET /userHasPaid?userId= */
export const paidResponse = z.object({hasPaid: z.boolean(), plan: z.string().optional()});

/** GET /retrieveUserFromCheckoutSession?sessionId=&claim= : a one-time sign-in for a guest purchase. */
export const checkoutSignInResponse = z.object({token: z.string()});

/** POST /checkoutStatus: see CHECKOUT_STATUSES. */
export const checkoutStatusResponse = z.object({status: z.enum(CHECKOUT_STATUSES)});

/**
 * POST /signedIn: the worker has seen this session. An account's first sign-in with its e-mail
 * proven may end it instead (401 SESSION_ENDED), when a password set before the proof was removed.
 */
export const signedInResponse = z.object({emailVerified: z.boolean()});

/**
 * GET /isAdmin: `admin` is true when the token's own account is one of the seller's admins. A
 * signed-in buyer gets `false` (200, not the console's 403), so that opening the account menu logs
 * no refused request in the browser's console.
 */
export const isAdminResponse = z.object({admin: z.boolean()});

/** POST /addUserToRepo and /resendInvitation (for any repository): invited (an invitation went out), active, or queued. */
export const accessResult = z.object({status: z.enum(['invited', 'active', 'queued'])});

/** A plan a payment bought: by the config's id (null for a plan no longer there), and its name. */
export const standingPlan = z.object({id: z.string().nullable(), name: z.string()});

/**
 * One upgrade applied to a purchase, and what became of its payment: its own, apart from the
 * purchase's (worker/src/upgrades/), so refunded, disputed or kept on its own. Amounts in cents.
 */
export const upgradeStanding = z.object({
  state: z.enum(PAYMENT_STATES),
  /** The plan it upgraded the purchase to (for seats added, the plan they were added to). */
  plan: standingPlan,
  /** Seats it added to a team; 0 for a move to a higher plan. */
  seatsAdded: z.number(),
  /** When it was paid (Unix ms). */
  paidAt: z.number(),
  /** When it came to `state`, as PaymentStanding's `since`; absent for `paid`. */
  since: z.number().optional(),
  /** What it paid (null when not recorded), and how much went back. */
  amount: z.number().nullable(),
  refunded: z.number(),
  currency: z.string(),
});

/**
 * One purchase's payment and what became of it, with its upgrades', for the dashboard to say.
 * `state`, `since` and the amounts are the purchase's own payment's, which decides its access.
 * Amounts in cents.
 */
export const paymentStanding = z.object({
  state: z.enum(PAYMENT_STATES),
  /** The plan the purchase's own payment bought (its upgrades are in `upgrades`). */
  plan: standingPlan,
  /**
   * With a payment that stands (`paid`, `partly_refunded`), the plan the purchase gives now: its
   * latest upgrade still paid, else `plan`.
   */
  planNow: standingPlan.optional(),
  /** When it was bought (Unix ms). */
  boughtAt: z.number(),
  /**
   * When it came to `state` (Unix ms), as the webhook told the worker: the last refund
   * (`partly_refunded`, `refunded`), the dispute opened (`disputed`) or closed (`dispute_lost`).
   * Absent for `paid`.
   */
  since: z.number().optional(),
  /** What it paid (null on a purchase recorded before amounts were), and how much went back. */
  amount: z.number().nullable(),
  refunded: z.number(),
  currency: z.string().nullable(),
  /**
   * The upgrades applied to it, the oldest first. A refund or dispute of the purchase leaves their
   * payments as they were (a refund at Stripe refunds one payment; the console's full refund
   * refunds the upgrades too), so each says its own.
   */
  upgrades: z.array(upgradeStanding),
  /**
   * The purchase and its upgrades added up: what was paid in all (null when an amount is not
   * recorded), and how much of it was refunded. Absent when their currencies differ.
   */
  total: z.object({amount: z.number().nullable(), refunded: z.number()}).optional(),
  /**
   * The seller revoked the purchase's access in the console (worker/src/access/grants/sellerRevocation.ts)
   * and has not granted it again. On a purchase refunded or disputed since, it came first: a dispute
   * won does not give back what the seller took.
   */
  revokedBySeller: z.literal(true).optional(),
});

/**
 * A `queued` invitation that waits because GitHub's cap of invitations per repository in 24 hours
 * is reached: its place in that repository's first-in, first-out line (1 goes next) and when it
 * is expected to go out (ms since the epoch).
 */
const queuePlace = z.object({position: z.number(), expectedAt: z.number()});

/**
 * What the dashboard shows of one repository's grant, the same for the kit's (AccessStatus) and
 * for each extra repository's (`extraRepositories`): worker/src/access/grants/status.ts `shownGrant`.
 */
const grantShown = z.object({
  /** `owner/name`, when the worker has a repository for it. */
  repository: z.string().optional(),
  /**
   * Its page, with `repository`: on github.com, or, in local mode, the GitHub stand-in's page
   * saying what the repository would be (the worker knows which GitHub it talks to).
   */
  repositoryUrl: z.string().optional(),
  /** The GitHub account the access is for. */
  username: z.string().optional(),
  /** A pending invitation GitHub no longer honours (after seven days): the buyer may ask for a new one. */
  expired: z.boolean().optional(),
  detail: z.string().optional(),
  /** Its place in its repository's line (queuePlace). Only the purchase's own account reads it. */
  queue: queuePlace.optional(),
});

/** One extra repository the plan grants, as the dashboard shows it. */
export const extraRepositoryAccess = z.object({
  /** The key in src/config's `extraRepositories`: its name and what it holds come from there. */
  key: z.string(),
  /**
   * `none`: nothing yet; the kit's invitation comes first, and the same GitHub account gets this
   * one. `not_configured`: the seller set no repository for the key, so nothing is sent.
   */
  status: z.enum(['none', 'not_configured', ...GRANT_STATUSES]),
  ...grantShown.shape,
});

/** GET /accessStatus: what the dashboard shows. `none`: nothing was asked for yet. */
/**
 * One member of a team as its owner sees it: the seat, how the owner named them, and where their
 * access stands (the seat's grant of the kit's repository, `none` before it has one).
 */
export const teamMember = z.object({
  seat: z.number(),
  /** `invited`: the link is out and not used yet; `joined`: the seat is theirs. */
  state: z.enum(['invited', 'joined']),
  /** The address the link went to, for a member invited by e-mail. */
  email: z.string().optional(),
  /** The GitHub account the seat holds, once one is named. */
  username: z.string().optional(),
  access: z.enum(['none', ...GRANT_STATUSES]),
  /** Its invitation on GitHub lapsed (seven days) before it was accepted. */
  expired: z.boolean(),
  /** Until when the e-mailed link works, for a member still `invited`. */
  linkExpiresAt: z.number().optional(),
});

/** GET /team: the owner's team purchase, its seats (the owner's own is seat 1) and its members. */
export const team = z.object({
  sessionId: z.string(),
  seats: z.number(),
  /** Seats no member holds or is invited to. */
  free: z.number(),
  members: z.array(teamMember),
});

/** POST /addTeamMember's answer: the seat given, and where the member's access stands. */
export const teamMemberAdded = z.object({
  seat: z.number(),
  state: z.enum(['invited', 'joined']),
  access: z.enum(['none', ...GRANT_STATUSES]),
});

/** POST /joinTeam's answer: the seat is the member's; their dashboard shows their access. */
export const teamJoined = z.object({seat: z.number(), owner: z.string()});

export const accessStatus = z.object({
  status: z.enum(['none', ...GRANT_STATUSES]),
  hasPaid: z.boolean(),
  /**
   * The payment the dashboard is about: with `hasPaid`, the paid purchase whose access this is;
   * without, the account's latest purchase that was refunded or disputed. Absent when the account
   * has no purchase at all.
   */
  payment: paymentStanding.optional(),
  /**
   * With `hasPaid`, the account's latest other purchase that was refunded or disputed (a buyer who
   * bought again after a refund, or had a second purchase refunded): its access went, this one's stays.
   */
  otherEnded: paymentStanding.optional(),
  /**
   * With `hasPaid`, the plan the account holds now: its best paid purchase's, upgrades included
   * (what GET /upgrades names), for what the dashboard says the plan includes.
   */
  plan: z.object({id: z.string(), name: z.string()}).optional(),
  /**
   * With `revoked`: its removal from GitHub is still being tried (GitHub did not answer the first
   * try), so the account may still be on the repository. `removal_failed`: the tries ended, and it
   * may be there until the seller removes it by hand.
   */
  removing: z.boolean().optional(),
  /**
   * The seller revoked the access in the console (not a refund or a dispute): the buyer cannot ask
   * for it again, nor download the code, until the seller grants it again.
   */
  revokedBySeller: z.boolean().optional(),
  /**
   * The access is a seat of someone else's team purchase (team/): `owner` is the address it was
   * bought with, and `plan` the plan the team holds. A member reads no payment and no refund: those
   * are the owner's.
   */
  team: z.object({owner: z.string(), seat: z.number(), plan: standingPlan}).optional(),
  /**
   * The seats of the team purchase the signed-in buyer owns (more than one), seat 1 theirs: the
   * dashboard shows "Your team", whose members GET /team lists.
   */
  seats: z.number().optional(),
  /** The caller held a seat of a team whose owner removed them (or refunded it): whose team it was, and why. */
  teamEnded: z.object({owner: z.string(), reason: z.enum(SEAT_END_REASON_KEYS)}).optional(),
  /**
   * The money-back guarantee: until when (Unix ms) the buyer may refund this purchase themselves
   * (POST /refundPurchase). Absent when they may not: the window has ended, the payment was
   * disputed, the seller revoked it, the buyer had a self-service refund already, or the seller
   * turned it off (`guarantee.selfService`). The end of the UTC day `guarantee.days` after the day
   * the purchase was paid (`periodEnd`), as the worker counts it again at the refund.
   */
  refundableUntil: z.number().optional(),
  /**
   * The EU consumer's right of withdrawal: until when (Unix ms) the buyer may withdraw from the
   * contract (POST /refundPurchase, `kind: 'withdrawal'`). Absent when they may not: the period
   * has ended, the code was delivered after they asked for delivery at once, the payment was
   * disputed or revoked by the seller, or the seller turned it off (`withdrawal.enabled`).
   */
  withdrawableUntil: z.number().optional(),
  /** With `withdrawableUntil`: the buyer asked at checkout for delivery at once, so the right ends on delivery too. */
  withdrawalEndsOnDelivery: z.boolean().optional(),
  /** How many times this purchase has moved its access to another GitHub account. */
  usernameChanges: z.number().optional(),
  /** How many more moves the purchase allows. */
  usernameChangesLeft: z.number().optional(),
  /**
   * The private repositories the purchase's plan grants besides the kit (src/config: a plan's
   * `extraRepositories`), each with its own state. Only for a paid purchase whose plan lists some.
   */
  extraRepositories: z.array(extraRepositoryAccess).optional(),
  /** The kit's repository's grant, shown as every other repository's is (`repository`: the kit's). */
  ...grantShown.shape,
});

/**
 * POST /downloadLink: where to download the code. The link is the buyer's alone, works once, and
 * expires after a few minutes; the worker checks the purchase (and, for an extra repository, that
 * the plan still grants it) again when it is followed.
 */
export const downloadLink = z.object({
  /** The path on the worker (`/download/<token>`): put it after the API base, as `apiUrl` does. */
  path: z.string(),
  /**
   * What the archive holds: the newest release GitHub's webhook announced (BuyerReleases.latestTag);
   * before any, GitHub's latest release, or the default branch. An extra repository's: its latest
   * release on GitHub, or its default branch.
   */
  ref: z.string(),
  /** Whether `ref` is a release (a tag) rather than the default branch. */
  release: z.boolean(),
  /** When the link stops working (Unix ms). */
  expiresAt: z.number(),
});

/** A release as the dashboard shows it. */
export const releaseNote = z.object({
  tag: z.string(),
  name: z.string(),
  /** The notes as HTML the worker rendered from the Markdown: raw HTML as text, links only http(s). */
  notesHtml: z.string(),
  /** The release's page on GitHub, when known. */
  url: z.string().nullable(),
  publishedAt: z.number(),
});

/**
 * GET /releases. A plan with updates is entitled to every release; one without, to those
 * published up to its purchase. `subscribed`: whether release e-mails go to the purchase's address.
 * A team's member reads the team purchase's releases, and `teamOwner` names who gets its e-mails.
 */
export const buyerReleases = z.object({
  releases: z.array(releaseNote),
  includesUpdates: z.boolean(),
  subscribed: z.boolean(),
  /** For a member of a team: the team's owner (the purchase's address), to whom release e-mails go. */
  teamOwner: z.string().optional(),
  /** The release a download serves now (DownloadLink.ref), marked next to the download; null before the first. */
  latestTag: z.string().nullable(),
  /**
   * For a plan without updates: the releases published after the purchase, which it does not
   * list, how many and the newest (absent when there are none).
   */
  later: z
    .object({count: z.number(), latest: z.object({tag: z.string(), name: z.string(), publishedAt: z.number()})})
    .optional(),
});

/** POST /releaseEmails: the choice now stored. */
export const releaseEmailsResult = z.object({subscribed: z.boolean()});

/** One of the buyer's purchases, and Stripe's page that proves it. Amounts in cents. */
export const receipt = z.object({
  /** The plan's name as the config has it now; for an upgrade's payment, "Upgrade: Starter → Advanced". */
  plan: z.string(),
  /** When the purchase was made (Unix ms). */
  paidAt: z.number(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  /** How much of it was refunded since (0 when none). */
  refunded: z.number(),
  /**
   * Stripe's page: the hosted invoice (`invoice`) when Checkout made one, else the charge's receipt
   * (`receipt`); null when Stripe could not be read just now.
   */
  url: z.string().nullable(),
  kind: z.enum(['invoice', 'receipt']).nullable(),
});

/** GET /receipts: the caller's purchases that were paid (refunded ones too), newest first. */
export const buyerReceipts = z.object({receipts: z.array(receipt)});

/** GET prices: amounts in cents, as the checkout charges them. */
export const pricesResponse = z.object({
  /** ISO 3166-1 alpha-2, as Cloudflare gave it; null when it is not known. */
  country: z.string().nullable(),
  /** The country's name in English ("Brazil"); null with no country. */
  countryName: z.string().nullable(),
  /** Whole percent off every plan; 0 when none applies (the list prices). */
  percentOff: z.number(),
  currency: z.string(),
  /** Each plan by its id in the config. */
  plans: z.array(z.object({id: z.string(), amount: z.number(), listAmount: z.number()})),
});

/**
 * One upgrade the buyer may pay for: the plan, and what it costs now (cents), with the upgrade code
 * asked about where it applies; `withoutCode` is then what it costs without it (else null).
 */
export const upgradeOffer = z.object({
  planId: z.string(),
  name: z.string(),
  amount: z.number(),
  currency: z.string(),
  withoutCode: z.number().nullable(),
});

/**
 * The upgrade code GET /upgrades?code= was asked about: as the seller made it (its case), or as
 * typed when there is none; what it gives (`launchCodeTerms`); and why it does not apply to this
 * buyer (UPGRADE_CODE_WORDS), or null when it does.
 */
export const upgradeCodeStanding = z.object({
  code: z.string(),
  terms: z.string().nullable(),
  refused: z.string().nullable(),
});

/**
 * More seats the owner may buy for their purchase's plan, sold for teams: how many it has, the most
 * the plan sells, and what one more costs (cents), priced as the worker will charge it. A plan sold
 * in fixed tiers (`team.tiers`) has no price per seat: `tiers` lists each larger tier and what the
 * move to it costs this buyer, credited what they paid.
 */
export const seatsOffer = z.object({
  seats: z.number(),
  most: z.number(),
  perSeat: z.number().nullable(),
  tiers: z.array(z.object({seats: z.number(), amount: z.number()})).nullable(),
  currency: z.string(),
});

/**
 * GET /upgrades: the plan the buyer's paid purchase gives now (null without one), its upgrades
 * (priced for every seat of a team), and more seats when its plan is sold for teams (else null).
 */
export const buyerPlan = z.object({
  plan: z.object({id: z.string(), name: z.string()}).nullable(),
  upgrades: z.array(upgradeOffer),
  seats: seatsOffer.nullable(),
  /** The upgrade code asked about (`?code=`), or null when none was. */
  code: upgradeCodeStanding.nullable(),
});

/** POST /api/leads */
export const leadResult = z.object({stored: z.boolean(), message: z.string().optional()});

/** GET / (and /api): the health check, which also sets the anti-forgery cookie. */
export const healthResponse = z.object({name: z.string(), ok: z.literal(true)});

/** POST /api/webhook/stripe, once the signature is good. */
export const stripeWebhookResult = z.object({
  received: z.literal(true),
  /** Whether the event's type is one the worker acts on. */
  handled: z.boolean().optional(),
  /** The event was processed before: skipped. */
  duplicate: z.literal(true).optional(),
});

/** POST /api/webhook/mailgun, once the signature is good. */
export const webhookReceived = z.object({received: z.literal(true)});

/** POST /api/webhook/mailgun/events, once the signature is good: whether the event changed a release e-mail's record. */
export const mailgunEventsResult = z.object({received: z.literal(true), recorded: z.boolean()});

/**
 * POST /api/webhook/github, once the signature is good: whether the delivery announced a release,
 * and to how many buyers (e-mailed in batches through the outbox), or why not.
 */
export const releaseWebhookResult = z.object({
  announced: z.boolean(),
  reason: z.string().optional(),
  recipients: z.number().optional(),
});

/** Every error answer: `{"error": message, "code"?}`. */
export const errorBody = z.object({error: z.string(), code: z.enum(ERROR_CODES).optional()});

// ---------------------------------------------------------------------------------------------
// The seller's console. Every admin route needs the ID token of a verified e-mail listed in the
// worker's ADMIN_EMAILS, and answers 403 ADMIN_ONLY to anyone else. Times are Unix milliseconds;
// amounts are in the currency's smallest unit (cents).

const PAGE_RULE = 'page must be a whole number from 1 to 100000';
/**
 * Absent is the first page; anything else that is not a page number is the caller's mistake, said
 * so (a silent first page would look like the list had ended).
 */
export const pageQuery = z.coerce
  .number({message: PAGE_RULE})
  .int(PAGE_RULE)
  .min(1, PAGE_RULE)
  .max(100_000, PAGE_RULE)
  .default(1);
const searchQuery = z
  .string()
  .max(200, 'The search is too long')
  .optional()
  .transform((value) => value ?? '');
export const periodQuery = z
  .enum(SALES_PERIODS, {message: `period must be one of ${SALES_PERIODS.join(', ')}`})
  .default(DEFAULT_SALES_PERIOD);
const planNames: string[] = appConfig.plans.map((plan) => plan.name);
/**
 * The purchases list's query (`GET purchases` and `purchasesCsv`); every field may be left out.
 * Each filter absent or one of its values: a value the list does not know is the caller's mistake, said so.
 */
export const purchaseFilter = z.object({
  q: searchQuery,
  state: z.enum(PURCHASE_STATES, {message: `state must be one of ${PURCHASE_STATES.join(', ')}`}).optional(),
  /** A plan's name in the config. */
  plan: z
    .string()
    .refine((name) => planNames.includes(name), {message: `plan must be one of ${planNames.join(', ')}`})
    .optional(),
  sort: z.enum(PURCHASE_SORTS, {message: `sort must be one of ${PURCHASE_SORTS.join(', ')}`}).optional(),
  /** Only the purchases flagged for this and not yet accepted by the seller. */
  flagged: z.enum(PURCHASE_FLAGS, {message: `flagged must be one of ${PURCHASE_FLAGS.join(', ')}`}).optional(),
});
export const jobIdParam = z.coerce.number({message: 'jobId must be a number'}).int().positive();
const RELEASE_ID_RULE = "releaseId must be a GitHub release's id, a whole number";
export const releaseIdParam = z.coerce
  .number({message: RELEASE_ID_RULE})
  .int(RELEASE_ID_RULE)
  .positive(RELEASE_ID_RULE)
  .max(Number.MAX_SAFE_INTEGER, RELEASE_ID_RULE);

/**
 * POST grant: invites `username` to the purchase's seat, and gives back what the seller's revocation
 * took. Without one, only that right comes back (the buyer may download and ask for an invitation
 * again): for a purchase that never had a seat.
 */
const MEMBER_ID_RULE = "member must be the id of a member, as the purchase's page lists them";
/** A team member's own record (AdminMember.id): the console names members by it, never by a seat number that may change hands. */
const memberId = z.number({message: MEMBER_ID_RULE}).int(MEMBER_ID_RULE).positive(MEMBER_ID_RULE);

/**
 * POST grant. `username`: the account to invite for the purchase's own seat, or with `member` for
 * that member's seat (the seller moves it to another account); neither: only the right a seller's
 * revocation took comes back.
 */
export const grantBody = z
  .strictObject(
    {username: githubUsername.optional(), member: memberId.optional()},
    {message: 'The body takes only username and member'},
  )
  .refine((body) => body.member === undefined || body.username !== undefined, {
    message: "Name the GitHub account to move the member's seat to",
  });

/** POST takeBackMember: the member whose seat the seller takes back (AdminMember.id). */
export const takeBackMemberBody = z.strictObject({member: memberId}, {message: 'The body takes only member'});

const AMOUNT_RULE = 'amount must be a whole number of cents, at least 1';
const SEATS_RULE = 'seats must be a whole number of seats, at least 1';
const MEMBER_RULE = "members must be the ids of members, as the purchase's page lists them";
const REFUNDED_BEFORE_RULE =
  'refundedBefore must be the cents refunded so far as the page showed them, a whole number from 0';
/**
 * POST refund. Without `amount`, all that is left to refund; with it, that many cents (a partial
 * refund keeps the buyer's access). The worker reads what is left from Stripe, never from here.
 * `refundedBefore`: the cents refunded so far as the page showed them when the seller decided.
 * It names the action: the same refund asked again on the same view (a double click, a second tab,
 * another admin) is the first one, answered as it was, never a second refund; and a new refund is
 * made only while Stripe has refunded exactly that much (else 409: read the purchase again).
 * `seats` (a team purchase's own payment, instead of `amount`): that many of its seats, refunded at
 * what it paid for each, priced by the worker; the team's count drops at once. `members`: the
 * members (their ids, `AdminMember.id`) who lose their seats first; the newest go for the rest.
 */
export const refundBody = z
  .strictObject(
    {
      amount: z
        .number({message: AMOUNT_RULE})
        .int(AMOUNT_RULE)
        .positive(AMOUNT_RULE)
        .max(99_999_999, AMOUNT_RULE)
        .optional(),
      reason: z.enum(REFUND_REASONS, {message: `reason must be one of ${REFUND_REASONS.join(', ')}`}),
      refundedBefore: z
        .number({message: REFUNDED_BEFORE_RULE})
        .int(REFUNDED_BEFORE_RULE)
        .min(0, REFUNDED_BEFORE_RULE)
        .max(99_999_999, REFUNDED_BEFORE_RULE),
      seats: z.number({message: SEATS_RULE}).int(SEATS_RULE).min(1, SEATS_RULE).max(1000, SEATS_RULE).optional(),
      members: z
        .array(z.number({message: MEMBER_RULE}).int(MEMBER_RULE).positive(MEMBER_RULE), {message: MEMBER_RULE})
        .max(1000, MEMBER_RULE)
        .refine((ids) => new Set(ids).size === ids.length, 'members names a member twice')
        .optional(),
    },
    {message: 'The body takes only amount or seats, members, reason and refundedBefore'},
  )
  .refine((body) => body.amount === undefined || body.seats === undefined, {
    message: 'Give amount or seats, not both: the worker prices seats itself',
  })
  .refine((body) => body.members === undefined || (body.seats !== undefined && body.members.length <= body.seats), {
    message: 'members names at most as many seats as are refunded, and only with seats',
  });

const differenceKind = z.enum(REPOSITORY_DIFFERENCE_KINDS, {
  message: `kind must be one of ${REPOSITORY_DIFFERENCE_KINDS.join(', ')}`,
});
/** An extra repository's key (GITHUB_EXTRA_REPOS), for its own audit; none for the kit's. */
export const repositoryKey = z
  .string({message: 'repository must be the key of an extra repository'})
  .trim()
  .min(1, 'repository must not be empty')
  .max(64, 'repository is too long');
/** POST repositoryFix. `repository`: an extra repository's key (RepositoryAudit.key); none for the kit. */
export const fixBody = z.object({
  kind: differenceKind,
  githubUserId: z.number({message: 'githubUserId is required'}).int().positive(),
  repository: repositoryKey.optional(),
});
/** POST repositoryFixAll. `repository`: an extra repository's key (RepositoryAudit.key); none for the kit. */
export const fixAllBody = z.strictObject(
  {kind: differenceKind, repository: repositoryKey.optional()},
  {message: 'The body takes only kind and repository: the worker finds the accounts itself'},
);

/** The console's queries and path parameters, as the routes read them (each field a string of the URL). */
export const pageQueryObject = z.object({page: pageQuery});
export const salesQuery = z.object({period: periodQuery});
export const purchasesQuery = purchaseFilter.extend({page: pageQuery});
export const repositoryAuditQuery = z.object({repository: repositoryKey.optional()});
export const sessionParams = z.object({sessionId: checkoutSessionId});
export const jobParams = z.object({jobId: jobIdParam});
export const releaseParams = z.object({releaseId: releaseIdParam});
/** A one-time download link's token (`DownloadLink.path`), and a release e-mail's signed unsubscribe token. */
export const downloadParams = z.object({token: z.string()});
export const unsubscribeParams = z.object({token: z.string()});

/** A page of a list: `page` starts at 1; `total` counts every row that matches. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({items: z.array(item), page: z.number(), pageSize: z.number(), total: z.number()});
}

/** Amounts are in the currency's smallest unit (cents). */
export const salesDay = z.object({
  /** `YYYY-MM-DD`, UTC. */
  day: z.string(),
  /** Revenue by plan name that day. */
  byPlan: z.record(z.string(), z.number()),
  purchases: z.number(),
});

export const salesSummary = z.object({
  currency: z.string(),
  period: z.enum(SALES_PERIODS),
  /** The period's first moment (Unix ms, UTC midnight); null for all time. */
  since: z.number().nullable(),
  /** What one entry of `days` covers: a day (7d, 30d) or a calendar month (12m, all; `day` is its first). */
  interval: z.enum(['day', 'month']),
  /** The period's days or months, oldest first, every one present (zero when nothing sold). */
  days: z.array(salesDay),
  /** Bought in the period, and still paid: money kept. */
  revenue: z.number(),
  /** Buyers with a paid purchase made in the period. */
  buyers: z.number(),
  /**
   * The seats those purchases hold now (a team's every seat, seats added since included, those
   * refunded not): the developers with access the period sold. Equal to the purchases' count
   * while nothing is sold for teams.
   */
  seats: z.number(),
  /**
   * Purchases (and upgrades) made in the period and refunded in full since; `of`, the payments made
   * in the period that went through (still paid, or refunded or disputed since): the refund rate is
   * `count` of `of`.
   */
  refunds: z.object({count: z.number(), amount: z.number(), of: z.number()}),
  /** Open: every dispute still open, whenever it began. Won and lost: those that closed in the period. */
  disputes: z.object({open: z.number(), won: z.number(), lost: z.number()}),
  /**
   * Abandoned checkouts won back (`checkout.recoverAbandoned`): the reminders sent in the period,
   * and the purchases made in it through a reminder's link that are still paid, with their revenue.
   */
  recovered: z.object({reminders: z.number(), purchases: z.number(), revenue: z.number()}),
});

/** A figure of the period and of the one before it (null for all time, which has none before). */
const compared = z.object({now: z.number(), before: z.number().nullable()});

/**
 * The funnel on the console's first screen, over the Sales period: from visitors (Plausible's Stats
 * API, when the worker has a key) to checkouts started and paid, refunds, and the code delivered
 * (invitations accepted, downloads, the median time from payment to access), each beside the
 * period before; and what needs a look now, whatever the period.
 */
export const adminFunnel = z.object({
  period: z.enum(SALES_PERIODS),
  /** The period's first moment (Unix ms, UTC midnight), as Sales gives it; null for all time. */
  since: z.number().nullable(),
  /**
   * When the worker began to record checkouts started (migration 0045; the first one recorded),
   * null before any. Those, the paid among them and invitations accepted have no figure of a
   * period before (`before` null) that reaches back past it.
   */
  recordedSince: z.number().nullable(),
  /** Unique visitors, from Plausible; `none` says why there is no figure, and the funnel starts at checkout. */
  visitors: z.discriminatedUnion('source', [
    compared.extend({source: z.literal('plausible')}),
    z.object({source: z.literal('none'), why: z.string()}),
  ]),
  /** Checkout Sessions the worker made for a purchase in the period. */
  checkoutsStarted: compared,
  /** Of those, the ones paid (still paid, or refunded or disputed since), through a reminder's link too. */
  checkoutsPaid: compared,
  /** Purchases of the period refunded in full since (an upgrade's refunds are in the Sales cards). */
  refunds: compared,
  /** Purchases of the period that went through: the refund rate's whole. */
  payments: compared,
  /**
   * Seats whose account first took its access in the period (an invitation accepted, or a
   * collaborator already), every repository; a seat moved to another account later counts once.
   */
  invitationsAccepted: compared,
  /** Downloads of the code served in the period. */
  downloads: compared,
  /**
   * The median time, in ms, from payment to the code (the first invitation accepted or download),
   * of the purchases paid in the period that have it; null where none has.
   */
  medianToAccess: z.object({now: z.number().nullable(), before: z.number().nullable()}),
  needsLook: z.object({
    /** Invitations sent more than 3 days ago and not accepted. */
    unaccepted: z.number(),
    /** Grants whose invitation, or removal, failed for good. */
    failedGrants: z.number(),
    /** Grants in line for GitHub's cap of invitations, and since when the first of them waits (Unix ms). */
    queued: z.number(),
    queuedSince: z.number().nullable(),
    /** Purchases flagged for their card's country and not yet accepted. */
    cardCountryFlags: z.number(),
  }),
});

/**
 * A purchase (or an upgrade) made with a fair-price discount (appConfig.fairPrices): the country and
 * percent it was given for, and the country of the card that paid (null until Stripe said; '' for
 * a payment that was no card). `review` is 'flagged' when the card is from another country, tells
 * none, or was never read (flagged with `cardCountry` null: the worker gave up asking Stripe), until
 * the seller accepts it ('accepted') or refunds it.
 */
export const adminFairPrice = z.object({
  country: z.string(),
  percentOff: z.number().nullable(),
  cardCountry: z.string().nullable(),
  review: z.enum(['flagged', 'accepted']).nullable(),
});

export const adminPurchase = z.object({
  sessionId: z.string(),
  createdAt: z.number(),
  email: z.string().nullable(),
  plan: z.string().nullable(),
  /** The seats it holds now: 1, or a team's (seats added later included, those refunded not). */
  seats: z.number(),
  /** Cents; null for purchases recorded before amounts were. */
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  state: z.enum(PURCHASE_STATES),
  /** Cents refunded so far, as Stripe's `charge.refunded` webhooks last said (0 when none). */
  amountRefunded: z.number(),
  /** The payment's page in Stripe's dashboard, in the mode of the worker's key; null before a payment. */
  stripeUrl: z.string().nullable(),
  /** Null for a purchase at the list price. */
  fairPrice: adminFairPrice.nullable(),
  /**
   * An upgrade of this purchase, sold at its fair price, whose own payment is flagged for its
   * card's country (the oldest, if more), until the seller accepts or refunds it; else null.
   */
  flaggedUpgrade: adminFairPrice.nullable(),
  access: z.object({status: z.enum(GRANT_STATUSES), username: z.string(), usernameChanges: z.number()}).nullable(),
  /**
   * A grant of the purchase, of any repository (the kit's or an extra one), was taken back but its
   * removal from GitHub failed for good (`removal_failed`): the account may still be there. The
   * console flags the row until a Retry or the audit's fix removes it.
   */
  removalFailed: z.boolean(),
  /**
   * When the seller revoked the purchase's access to the code (Unix ms): its seat, its downloads and
   * its download links, until the seller grants access again. Null while it is not revoked.
   */
  revokedBySellerAt: z.number().nullable(),
});

/** `upgrade`: an upgrade of the purchase to a higher plan, its own sale (its amount is the difference). */
export const purchaseEventKind = z.enum(['stripe', 'invitation', 'removal', 'email', 'admin', 'upgrade']);

export const purchaseEvent = z.object({
  at: z.number(),
  kind: purchaseEventKind,
  /** One line: the Stripe event type, the job and its outcome, the admin's action. */
  summary: z.string(),
  /** done, failed, retrying, pending: for outbox work. */
  status: z.string().optional(),
  detail: z.string().optional(),
});

/**
 * An upgrade's state in the console: `paid` (applied), `refunded` or `disputed` (taken back: the
 * purchase is on `fromPlan` again), `refused` (paid but never applied; the worker refunds it),
 * `failed` (the payment failed).
 */
export const upgradeState = z.enum(['paid', 'refunded', 'disputed', 'refused', 'failed']);

/** One upgrade of a purchase that reached a payment: its own Stripe payment, refunded on its own. */
export const adminUpgrade = z.object({
  /** The upgrade's Checkout Session: what POST refund takes to refund this payment only. */
  sessionId: z.string(),
  /** The plans' names as the config has them now. */
  fromPlan: z.string(),
  toPlan: z.string(),
  /** What it bought, as receipts name it: "Upgrade: Starter → Advanced", or "2 more seats: Advanced". */
  label: z.string(),
  /** Seats it added to a team (0 for a move to a higher plan): a full refund takes them away again. */
  seatsAdded: z.number(),
  state: upgradeState,
  /** Cents paid (the difference between the plans), and refunded so far, as Stripe's webhooks last said. */
  amount: z.number(),
  amountRefunded: z.number(),
  currency: z.string(),
  /** Null for a payment that never went through: nothing to refund. */
  paymentIntentId: z.string().nullable(),
  /** When it was paid (Unix ms); null when it was not. */
  paidAt: z.number().nullable(),
  /** Null for an upgrade at list prices; else its fair price and its own card's country check. */
  fairPrice: adminFairPrice.nullable(),
  /** The upgrade code its session was priced with, as the buyer typed it; null for none. */
  launchCode: z.string().nullable(),
});

/** Another paid purchase of the same buyer, as its purchase page names it. */
export const adminOtherPurchase = z.object({
  sessionId: z.string(),
  /** The plan it gives now, as the config names it (null for one the config no longer has). */
  plan: z.string().nullable(),
  createdAt: z.number(),
  revokedBySellerAt: z.number().nullable(),
});

/**
 * One repository's grant of a purchase as the console shows it: what the dashboard shows of it
 * (`grantShown`, read from GitHub the same way), with its key and when it last changed. `expired`: a
 * pending invitation GitHub no longer honours; the seller may send a new one (`resend`).
 */
export const adminGrant = z.object({
  /** `kit` for the purchase's seat, else the key in src/config's `extraRepositories`. */
  key: z.string(),
  status: z.enum(GRANT_STATUSES),
  updatedAt: z.number(),
  ...grantShown.shape,
});

/**
 * A member of a team purchase as the console lists them: every seat given, now or before (a member
 * removed, an invitation withdrawn), the newest first, with the kit's grant of their seat while it
 * is theirs.
 */
export const adminMember = z.object({
  /** The member's own record: the seat refund names members by it, never by a seat number that may change hands. */
  id: z.number(),
  seat: z.number(),
  state: z.enum(['invited', 'joined', 'withdrawn', 'removed']),
  /** The address invited (null for a member the owner named by GitHub username). */
  email: z.string().nullable(),
  /** The GitHub account their seat names, once named. */
  username: z.string().nullable(),
  /** Their seat's grant of the kit's repository, or `none` before one (or after another member's). */
  access: z.enum([...GRANT_STATUSES, 'none']),
  /** Why the seat ended: the owner removed them, seats were refunded or disputed, or the seller took it back; null while held. */
  endReason: z.enum(SEAT_END_REASON_KEYS).nullable(),
  updatedAt: z.number(),
});

/**
 * What the console may refund of a team purchase's own seats (worker/src/team/seatRefund.ts): at
 * most `most` (the team keeps `keeps`), `refunded` of them so far; each refund gives back
 * `seatRefundAmount(paid, bought, seats)` (src/config/teams.ts): what it paid, in cents, over the
 * seats it was bought with; `held`, the seats taken now.
 */
export const seatRefundOffer = z.object({
  most: z.number(),
  /**
   * The fewest of its seats the team keeps (`seatsKept`): 1, the buyer's own, or 2 where a team's
   * seat costs less than the plan alone.
   */
  keeps: z.number(),
  refunded: z.number(),
  paid: z.number(),
  bought: z.number(),
  /**
   * Seats past the owner's held now, as the worker counts them: by a member, or by a grant whose
   * take-back has not reached GitHub yet. A refund that leaves fewer seats ends that many members.
   */
  held: z.number(),
});

export const adminPurchaseDetail = adminPurchase.extend({
  /** A team's members, every seat given (none for a purchase of one seat). */
  members: z.array(adminMember),
  /** Null for a purchase bought for one seat, or not paid. */
  seatRefund: seatRefundOffer.nullable(),
  paymentIntentId: z.string().nullable(),
  customerId: z.string().nullable(),
  userId: z.string().nullable(),
  /**
   * Every repository's grant the purchase holds or held: the kit's (its seat) first, then the plan's
   * extra repositories by key (worker/src/access/grants/status.ts `shownGrantsOf`).
   */
  grants: z.array(adminGrant),
  /** Its upgrades that reached a payment, the oldest first. */
  upgrades: z.array(adminUpgrade),
  /**
   * The buyer's other paid purchases, the oldest first: made with the same sign-in account, or to
   * the same e-mail (a guest purchase, which the account of that e-mail holds once it is verified).
   * The seller's revocation is each purchase's own: revoking this one leaves each of these the
   * buyer's way to the code until it is revoked too (`revokedBySellerAt`).
   */
  otherPaidPurchases: z.array(adminOtherPurchase),
  history: z.array(purchaseEvent),
  /** The launch code the buyer paid with (a Stripe promotion code the console made); null for none. */
  launchCode: z.string().nullable(),
  /** The code of the affiliate credited with the sale; null when no affiliate referred it. */
  referredBy: z.string().nullable(),
});

/**
 * What every admin action answers: where it left things, in a word (`invited`, `revoked`,
 * `reset`, `done`, `fixed`…), and what it did, in a line for the seller.
 */
export const adminActionResult = z.object({status: z.string(), detail: z.string()});

export const adminJob = z.object({
  id: z.number(),
  /**
   * `release-mail`: one batch (up to 1,000 buyers) of a release's e-mail. `reconcile`: a purchase's
   * grants brought in step with what it should hold. Only jobs queued before a rename carry
   * `extra-grants` (a reconcile of the extra repositories alone) or `extra-withdraw` (a removal the
   * worker before migration 0031 queued: an extra repository's stale invitation). `team-seats`: a
   * refund of a team's seats settled after its request, should the request have stopped half-way.
   * `checkout-reminder`: the one e-mail to a buyer who left a checkout unpaid, with its recovery link.
   * `affiliate-credit`: the commission of a referred purchase, once its buyer is known not to be the affiliate.
   * `affiliate-transfer`: a payout through Stripe whose transfer the worker has not heard back about.
   */
  kind: z.enum([
    'mail',
    'release-mail',
    'github-invite',
    'github-remove',
    'reconcile',
    'card-country',
    'extra-grants',
    'extra-withdraw',
    'team-seats',
    'checkout-reminder',
    'affiliate-credit',
    'affiliate-transfer',
  ]),
  /** failed: the outbox gave up; retrying: it will try again at `runAfter`. */
  state: z.enum(['failed', 'retrying']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  runAfter: z.number(),
  updatedAt: z.number(),
  /** The purchase it belongs to, when it belongs to one. */
  sessionId: z.string().nullable(),
  /** A removal that failed for good: a refunded buyer may still be on GitHub. */
  removalFailed: z.boolean(),
});

export const repositoryDifference = z.object({
  kind: z.enum(REPOSITORY_DIFFERENCE_KINDS),
  githubUserId: z.number(),
  login: z.string(),
  /** collaborator, or a pending invitation. */
  on: z.enum(['collaborator', 'invitation', 'nowhere']),
  sessionId: z.string().nullable(),
  /** A team member's seat (2 and up) of that purchase, whose grant it is; absent: the buyer's own. */
  seat: z.number().optional(),
  /** The e-mail of that purchase, for the seller to know the buyer by. */
  email: z.string().nullable(),
});

/** The repository's invitations against GitHub's cap, and the queue of those that wait. */
export const invitationWindow = z.object({
  /** Invitations allowed in any 24 hours (`appConfig.repository.invitationsPerDay`). */
  cap: z.number(),
  /** Invitations the worker sent to the repository in the last 24 hours. */
  usedLast24h: z.number(),
  /** Invitations waiting in the queue. */
  queued: z.number(),
  /** When the last one waiting is expected to go out (ms since the epoch), or null with none waiting. */
  drainsBy: z.number().nullable(),
});

/**
 * GET repositoryAudit: the kit's repository, or with `?repository=<key>` one of the plan's extra
 * repositories (GITHUB_EXTRA_REPOS), against its own grants.
 */
export const repositoryAudit = z.object({
  repository: z.string(),
  /** The extra repository's key this audit is of; null for the kit's. */
  key: z.string().nullable(),
  /** The extra repositories the worker has (GITHUB_EXTRA_REPOS), each with an audit of its own. */
  extraRepositories: z.array(z.object({key: z.string(), repository: z.string()})),
  checkedAt: z.number(),
  /** What was compared: paid purchases that hold a seat, and who GitHub has on the repository. */
  counts: z.object({
    /** Paid purchases whose access is granted (invited, accepted, queued or failed). */
    paid: z.number(),
    collaborators: z.number(),
    /** Open invitations (not expired). */
    invited: z.number(),
  }),
  differences: z.array(repositoryDifference),
  /** The owner and GITHUB_EXEMPT accounts, left out of the comparison. */
  exempt: z.array(z.string()),
  /** GitHub's cap on invitations, as the worker counts it (from D1, not from GitHub). */
  invitations: invitationWindow,
  /** How many differences of each kind one fix-all call fixes on this worker (its plan's subrequests). */
  fixAllLimits: z.record(z.enum(REPOSITORY_DIFFERENCE_KINDS), z.number()),
});

/** What a fix-all did: `status` is `fixed` when nothing failed and nothing is left. */
export const repositoryFixAllResult = adminActionResult.extend({
  kind: z.enum(REPOSITORY_DIFFERENCE_KINDS),
  /** Accounts fixed. */
  done: z.number(),
  /** Accounts tried and not fixed, each with the reason, in the seller's words. */
  failed: z.array(z.object({login: z.string(), githubUserId: z.number(), reason: z.string()})),
  /** Differences of this kind past the limit, not tried: for a later call. */
  left: z.number(),
});

export const adminLead = z.object({email: z.string(), createdAt: z.number()});

const CODE_RULE = 'code is 3 to 40 letters, digits or dashes';
const PERCENT_RULE = 'percentOff is a whole number from 1 to 100';
const AMOUNT_OFF_RULE = 'amountOff is a whole number of cents from 1 to 99,999,999';
const USES_RULE = `maxUses is a whole number from 1 to ${LAUNCH_CODE_LIMITS.maxUses}`;
const ENDS_RULE = 'endsAt is a time in milliseconds since 1970';

/**
 * POST /admin/codes: a launch code. Percent or amount off, never both; the worker makes the
 * coupon and the promotion code at Stripe from these, and Stripe takes the discount off.
 */
export const launchCodeBody = z
  .strictObject(
    {
      code: z.string({message: CODE_RULE}).regex(LAUNCH_CODE_PATTERN, CODE_RULE),
      percentOff: z
        .number({message: PERCENT_RULE})
        .int(PERCENT_RULE)
        .min(1, PERCENT_RULE)
        .max(100, PERCENT_RULE)
        .optional(),
      amountOff: z
        .number({message: AMOUNT_OFF_RULE})
        .int(AMOUNT_OFF_RULE)
        .min(1, AMOUNT_OFF_RULE)
        .max(99_999_999, AMOUNT_OFF_RULE)
        .optional(),
      maxUses: z
        .number({message: USES_RULE})
        .int(USES_RULE)
        .min(1, USES_RULE)
        .max(LAUNCH_CODE_LIMITS.maxUses, USES_RULE)
        .optional(),
      endsAt: z.number({message: ENDS_RULE}).int(ENDS_RULE).positive(ENDS_RULE).optional(),
      firstTimeOnly: z.boolean({message: 'firstTimeOnly is true or false'}).optional(),
      /** Past buyers only: an upgrade code, typed on the dashboard, never at Stripe's Checkout. */
      forUpgrades: z.boolean({message: 'forUpgrades is true or false'}).optional(),
      plan: z.string({message: 'plan is a plan id'}).optional(),
    },
    {
      message:
        'The body takes only code, percentOff or amountOff, maxUses, endsAt, firstTimeOnly, forUpgrades and plan',
    },
  )
  .refine((body) => (body.percentOff === undefined) !== (body.amountOff === undefined), {
    message: 'Give percentOff or amountOff: one of them, not both',
  })
  .refine((body) => !(body.forUpgrades && body.firstTimeOnly), {message: LAUNCH_CODE_WORDS.upgradeFirstTime});

/** A code's id as the console names it: a promotion code's id at Stripe, or an upgrade code's (the worker's). */
export const launchCodeParams = z.object({
  codeId: z
    .string({message: 'codeId is required'})
    .refine(
      (id) => /^promo_[A-Za-z0-9]{1,200}$/.test(id) || UPGRADE_CODE_ID_PATTERN.test(id),
      'codeId is not a code id (a Stripe promotion code id, or an upgrade code id)',
    ),
});

/**
 * A launch code as the console lists it: what it takes off, its limits, where it stands, and what
 * it sold (the paid purchases Stripe recorded it on, or for an upgrade code the upgrades paid with
 * it: `revenue` is what they paid less refunds, in the plans' currency).
 */
export const adminLaunchCode = z.object({
  id: z.string(),
  code: z.string(),
  percentOff: z.number().nullable(),
  amountOff: z.number().nullable(),
  currency: z.string(),
  maxUses: z.number().nullable(),
  endsAt: z.number().nullable(),
  firstTimeOnly: z.boolean(),
  /** An upgrade code (past buyers only): typed on the dashboard, its uses and revenue are upgrades'. */
  forUpgrades: z.boolean(),
  /** The plan id it is restricted to (for an upgrade code, the plan upgraded to), or null for every plan. */
  plan: z.string().nullable(),
  createdAt: z.number(),
  endedAt: z.number().nullable(),
  state: z.enum(Object.keys(LAUNCH_CODE_STATES) as [keyof typeof LAUNCH_CODE_STATES]),
  uses: z.number(),
  /**
   * An upgrade code's uses held by checkouts in progress: other purchases' checkouts priced with it
   * that may still be paid (upgradeCodeUses). Buyers are refused once uses and held reach its max
   * uses. 0 for a promotion code: Stripe counts only redemptions.
   */
  held: z.number(),
  revenue: z.number(),
});
export const adminLaunchCodes = z.object({items: z.array(adminLaunchCode)});

// ---------------------------------------------------------------------------------------------
// The affiliate programme (affiliates.ts). Amounts are in the plans' currency's smallest unit.

const affiliateCode = z
  .string({message: AFFILIATE_CODE_RULE})
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().regex(AFFILIATE_CODE_PATTERN, AFFILIATE_CODE_RULE));

/** POST /affiliateVisit: the code of the link the visitor followed. */
export const affiliateVisitBody = z.strictObject({code: affiliateCode});
/** The visit's id for the checkout, and until when the worker counts it (Unix ms). */
export const affiliateVisit = z.object({referral: z.string(), expiresAt: z.number()});

/** POST /joinAffiliates: the code the user names for their link. */
export const joinAffiliatesBody = z.strictObject({code: affiliateCode});

const commissionState = z.enum(Object.keys(COMMISSION_STATES) as [keyof typeof COMMISSION_STATES]);

/**
 * Commission by where it stands, in `currency`. `payable` is what the next payout pays: the
 * commission payable less what is owed back (commission paid on purchases refunded or disputed
 * since); `owedBack` is what is left owed beyond it, taken off later payouts.
 */
export const commissionTotals = z.object({
  currency: z.string(),
  pending: z.number(),
  payable: z.number(),
  paid: z.number(),
  owedBack: z.number(),
});

/** One commission, as its affiliate sees it: no buyer is named. */
export const affiliateCommission = z.object({
  paidAt: z.number(),
  /** What the buyer paid, after discounts and refunds, before tax. */
  amount: z.number(),
  commission: z.number(),
  currency: z.string(),
  state: commissionState,
  /** When it is (or was) payable. */
  payableAt: z.number(),
});

/** The programme's terms, as the worker applies them. */
export const affiliateTerms = z.object({
  commissionPercent: z.number(),
  referralDays: z.number(),
  holdDays: z.number(),
});

/**
 * Where an affiliate's payouts through Stripe stand, or null when the seller pays by their own
 * means (the programme's `stripeConnect` off). `unconnected`: no Stripe account yet. `onboarding`:
 * the worker made their Express account, and Stripe cannot take transfers to it yet (details
 * missing or being checked). `ready`: Stripe takes transfers to it (its `transfers` capability is
 * active).
 */
export const affiliateStripe = z.enum(['unconnected', 'onboarding', 'ready']).nullable();

/**
 * GET /affiliate: `affiliate` is null until the user joins. Otherwise their code, link, the visits
 * counted (once per visitor and day), the sales, and their commission, newest first.
 */
export const affiliateAnswer = z.object({
  terms: affiliateTerms,
  affiliate: z
    .object({
      code: z.string(),
      link: z.string(),
      joinedAt: z.number(),
      clicks: z.number(),
      sales: z.number(),
      totals: commissionTotals,
      commissions: z.array(affiliateCommission),
      stripe: affiliateStripe,
    })
    .nullable(),
});

/**
 * POST /affiliateConnect: a single-use Stripe link for the affiliate (it expires within minutes):
 * `onboarding` to set up or finish their Express account, `dashboard` to their Stripe Express
 * dashboard once it is ready.
 */
export const affiliateConnectAnswer = z.object({url: z.string(), kind: z.enum(['onboarding', 'dashboard'])});

/**
 * How a payout was made. `marked`: the seller paid by their own means and marked it, with their
 * reference. `stripe`: the worker sent it as a Stripe transfer; its reference is the transfer's id.
 */
export const payoutMethod = z.enum(['marked', 'stripe']);
/**
 * Where a payout stands. `made`: paid (marked, or the transfer Stripe accepted). `sending`: a
 * transfer the worker asked Stripe for and has not heard back about; the outbox asks again with
 * the same idempotency key, so Stripe makes it once.
 */
export const payoutState = z.enum(['sending', 'made']);

/** An affiliate as the console lists them. */
export const adminAffiliate = z.object({
  id: z.string(),
  code: z.string(),
  email: z.string(),
  joinedAt: z.number(),
  clicks: z.number(),
  sales: z.number(),
  totals: commissionTotals,
  /** The last payout, if any; a transfer's reference is '' until Stripe answers. */
  lastPayout: z
    .object({amount: z.number(), reference: z.string(), at: z.number(), method: payoutMethod, state: payoutState})
    .nullable(),
  stripe: affiliateStripe,
});
/**
 * `asOf`: the moment the figures are as of (Unix ms), which a payout sends back to pay only what was
 * payable then. `stripeConnect`: whether the programme pays through Stripe.
 */
export const adminAffiliates = z.object({
  items: z.array(adminAffiliate),
  totals: commissionTotals,
  asOf: z.number(),
  stripeConnect: z.boolean(),
});

export const affiliateParams = z.object({
  affiliateId: z
    .string({message: 'affiliateId is required'})
    .regex(/^aff_[A-Za-z0-9]{8,64}$/, 'affiliateId is not an affiliate id'),
});

/**
 * POST /admin/affiliates/:affiliateId/payout: the amount the seller saw payable and paid (the
 * worker refuses it when what is payable has changed since), and their reference for the payment.
 * `asOf`, the list's moment: only commissions payable by then are paid (one that became payable
 * after the seller looked was not in what they paid); now when left out.
 */
export const affiliatePayoutBody = z
  .strictObject({
    asOf: z.number({message: 'asOf must be a time in Unix milliseconds'}).int().positive().optional(),
    amount: z
      .number({message: 'The amount must be a whole number of cents'})
      .int()
      .min(1, 'The amount must be positive'),
    /** `marked` (left out): the seller paid by their own means. `stripe`: the worker sends a transfer. */
    method: z.enum(payoutMethod.options, {message: "method is 'marked' or 'stripe'"}).default('marked'),
    reference: z
      .string({message: 'A reference is required'})
      .trim()
      .max(200, 'The reference must be at most 200 characters')
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.method === 'marked' && !body.reference)
      context.addIssue({
        code: 'custom',
        path: ['reference'],
        message: 'A reference is required (a transfer id, an invoice number)',
      });
    if (body.method === 'stripe' && body.reference)
      context.addIssue({
        code: 'custom',
        path: ['reference'],
        message: "A payout through Stripe takes no reference: the transfer's id is its reference",
      });
  });

/**
 * A refund a buyer made themselves (payments/selfRefund.ts), newest first: which right they used,
 * the reason they gave, and what Stripe refunded. `amount` and `refundId` are null while Stripe has
 * not refunded: a claim whose refund failed, which the buyer was told to take to support.
 */
export const adminSelfRefund = z.object({
  sessionId: z.string(),
  email: z.string().nullable(),
  kind: refundPurchaseBody.shape.kind.unwrap(),
  reason: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  refundId: z.string().nullable(),
  at: z.number(),
});

export const adminJobs = z.array(adminJob);

export const adminAction = z.enum([
  'grant',
  'revoke',
  'resend',
  'reset_username_changes',
  'take_back_member',
  'refund',
  'accept_card_country',
  'retry_job',
  'repository_fix',
  'resend_release',
  'create_code',
  'end_code',
  'affiliate_payout',
]);

export const adminAuditEntry = z.object({
  id: z.number(),
  at: z.number(),
  admin: z.string(),
  action: adminAction,
  /** `failed`: the action did not finish; `detail` says why and what had changed by then. */
  outcome: z.enum(['done', 'failed']),
  sessionId: z.string().nullable(),
  detail: z.string().nullable(),
});

export const adminReleaseFailure = z.object({
  email: z.string(),
  /** Mailgun's words: its refusal, or the receiving server's answer. */
  reason: z.string().nullable(),
});

/**
 * A release in the console. Counts are of addresses, per buyer as the worker recorded them:
 * `emailed` accepted by Mailgun and not failed since (`delivered` among them once Mailgun's
 * event says so), `failed` refused by Mailgun or bounced for good (listed in `failures`, the first
 * MAX_LISTED_FAILURES), `waiting` in batches not sent yet. `unsubscribed`: of the buyers this
 * release was queued for, those who have turned release e-mails off.
 */
export const adminRelease = z.object({
  id: z.number(),
  tag: z.string(),
  name: z.string(),
  publishedAt: z.number(),
  recipients: z.number(),
  emailed: z.number(),
  delivered: z.number(),
  failed: z.number(),
  waiting: z.number(),
  unsubscribed: z.number(),
  failures: z.array(adminReleaseFailure),
});

export const adminReleases = z.array(adminRelease);

// ---------------------------------------------------------------------------------------------
// The types both sides use, inferred: what the site sends is a schema's input, what it reads an output.

export type CreateCheckoutSessionRequest = z.input<typeof checkoutBody>;
export type AffiliateVisitRequest = z.input<typeof affiliateVisitBody>;
export type JoinAffiliatesRequest = z.input<typeof joinAffiliatesBody>;
export type AffiliatePayoutRequest = z.input<typeof affiliatePayoutBody>;
export type CheckoutStatusRequest = z.input<typeof checkoutStatusBody>;
export type BillingPortalRequest = z.input<typeof billingPortalBody>;
export type AddUserToRepoRequest = z.input<typeof addUserToRepoBody>;
export type LeadRequest = z.input<typeof leadBody>;
export type ResendRequest = z.input<typeof resendBody>;
export type TeamMemberRequest = z.input<typeof teamMemberBody>;
export type TeamSeatRequest = z.input<typeof teamSeatBody>;
export type JoinTeamRequest = z.input<typeof joinTeamBody>;
export type RefundPurchaseRequest = z.input<typeof refundPurchaseBody>;
/** Which of the buyer's rights a refund of their own uses. */
export type OwnRefundKind = z.output<typeof refundPurchaseBody>['kind'];
export type DownloadLinkRequest = z.input<typeof downloadLinkBody>;
export type ReleaseEmailsRequest = z.input<typeof releaseEmailsBody>;
export type CreateUpgradeSessionRequest = z.input<typeof upgradeBody>;
export type PurchaseFilter = z.input<typeof purchaseFilter>;
export type AdminGrantRequest = z.input<typeof grantBody>;
export type TakeBackMemberRequest = z.input<typeof takeBackMemberBody>;
export type AdminRefundRequest = z.input<typeof refundBody>;
export type SeatRefundOffer = z.infer<typeof seatRefundOffer>;
export type RepositoryFixRequest = z.input<typeof fixBody>;
export type RepositoryFixAllRequest = z.input<typeof fixAllBody>;

export type UrlResponse = z.infer<typeof urlResponse>;
export type PaidResponse = z.infer<typeof paidResponse>;
export type CheckoutSignInResponse = z.infer<typeof checkoutSignInResponse>;
export type CheckoutStatusResponse = z.infer<typeof checkoutStatusResponse>;
export type SignedInResponse = z.infer<typeof signedInResponse>;
export type IsAdminResponse = z.infer<typeof isAdminResponse>;
export type AccessResult = z.infer<typeof accessResult>;
export type RefundPurchaseResult = z.infer<typeof refundPurchaseResult>;
export type QueuePlace = z.infer<typeof queuePlace>;
export type GrantShown = z.infer<typeof grantShown>;
export type StandingPlan = z.infer<typeof standingPlan>;
export type UpgradeStanding = z.infer<typeof upgradeStanding>;
export type PaymentStanding = z.infer<typeof paymentStanding>;
export type ExtraRepositoryAccess = z.infer<typeof extraRepositoryAccess>;
export type AccessStatus = z.infer<typeof accessStatus>;
export type TeamMember = z.infer<typeof teamMember>;
export type Team = z.infer<typeof team>;
export type TeamMemberAdded = z.infer<typeof teamMemberAdded>;
export type TeamJoined = z.infer<typeof teamJoined>;
export type DownloadLink = z.infer<typeof downloadLink>;
export type ReleaseNote = z.infer<typeof releaseNote>;
export type BuyerReleases = z.infer<typeof buyerReleases>;
export type Receipt = z.infer<typeof receipt>;
export type BuyerReceipts = z.infer<typeof buyerReceipts>;
export type PricesResponse = z.infer<typeof pricesResponse>;
export type UpgradeOffer = z.infer<typeof upgradeOffer>;
export type UpgradeCodeStanding = z.infer<typeof upgradeCodeStanding>;
export type BuyerPlan = z.infer<typeof buyerPlan>;
export type SeatsOffer = z.infer<typeof seatsOffer>;
export type LeadResult = z.infer<typeof leadResult>;
export type MailgunEventsResult = z.infer<typeof mailgunEventsResult>;
export type ReleaseWebhookResult = z.infer<typeof releaseWebhookResult>;
export type ErrorBody = z.infer<typeof errorBody>;
export type Page<T> = Omit<z.infer<ReturnType<typeof pageOf>>, 'items'> & {items: T[]};
export type SalesDay = z.infer<typeof salesDay>;
export type SalesSummary = z.infer<typeof salesSummary>;
export type AdminFunnel = z.infer<typeof adminFunnel>;
export type AdminFairPrice = z.infer<typeof adminFairPrice>;
export type AdminPurchase = z.infer<typeof adminPurchase>;
export type PurchaseEventKind = z.infer<typeof purchaseEventKind>;
export type PurchaseEvent = z.infer<typeof purchaseEvent>;
export type UpgradeState = z.infer<typeof upgradeState>;
export type AdminUpgrade = z.infer<typeof adminUpgrade>;
export type AdminOtherPurchase = z.infer<typeof adminOtherPurchase>;
export type AdminGrant = z.infer<typeof adminGrant>;
export type AdminPurchaseDetail = z.infer<typeof adminPurchaseDetail>;
export type AdminMember = z.infer<typeof adminMember>;
export type AdminActionResult = z.infer<typeof adminActionResult>;
export type AdminJob = z.infer<typeof adminJob>;
export type RepositoryDifference = z.infer<typeof repositoryDifference>;
export type InvitationWindow = z.infer<typeof invitationWindow>;
export type RepositoryAudit = z.infer<typeof repositoryAudit>;
export type RepositoryFixAllResult = z.infer<typeof repositoryFixAllResult>;
export type AdminLead = z.infer<typeof adminLead>;
export type AdminLaunchCode = z.infer<typeof adminLaunchCode>;
export type AffiliateVisit = z.infer<typeof affiliateVisit>;
export type AffiliateStripe = z.infer<typeof affiliateStripe>;
export type AffiliateConnectAnswer = z.infer<typeof affiliateConnectAnswer>;
export type PayoutMethod = z.infer<typeof payoutMethod>;
export type PayoutState = z.infer<typeof payoutState>;
export type AffiliateAnswer = z.infer<typeof affiliateAnswer>;
export type AffiliateCommission = z.infer<typeof affiliateCommission>;
export type CommissionTotals = z.infer<typeof commissionTotals>;
export type AdminAffiliate = z.infer<typeof adminAffiliate>;
export type AdminAffiliates = z.infer<typeof adminAffiliates>;
export type LaunchCodeBody = z.input<typeof launchCodeBody>;
export type AdminSelfRefund = z.infer<typeof adminSelfRefund>;
export type AdminAction = z.infer<typeof adminAction>;
export type AdminAuditEntry = z.infer<typeof adminAuditEntry>;
export type AdminReleaseFailure = z.infer<typeof adminReleaseFailure>;
export type AdminRelease = z.infer<typeof adminRelease>;
