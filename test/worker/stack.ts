/**
 * One test file's backend: the worker in workerd with a fresh local D1, pointed at stand-ins for
 * Stripe, GitHub and Mailgun, and at the shared Firebase Auth emulator for ID tokens.
 */
import type Stripe from 'stripe';
import {appConfig, type Plan} from '../../src/config';
import {checkoutOptions, consentMetadata} from '../../worker/src/payments/checkoutOptions';
import {API_PATHS, CHECKOUT_RETURN_PARAMS} from '../../src/config/api';
import {EMULATOR_PROJECT, oobCodes} from '../../scripts/local/authEmulator';
import {
  baseVars,
  type RunningWorker,
  SITE_ORIGIN,
  startWorker,
  type WorkerVars,
} from '../../scripts/support/workerRuntime';
import {settledAccountSql} from '../../scripts/bench/idTokens';
import {offlineServiceAccount} from '../../scripts/support/offlineServiceAccount';
import {
  EXTRA_FIXTURE_REPO,
  FIXTURE_REPO,
  type GitHubStandIn,
  OWNER,
  startGitHubStandIn,
} from '../../scripts/local/githubApi';
import {type MailgunStandIn, startMailgunStandIn} from '../../scripts/local/mailgunApi';
import {
  type PaidWith,
  signStripePayload,
  startStripeStandIn,
  stripeEvent,
  type StripeStandIn,
} from '../../scripts/local/stripeApi';
import {runEmulatorHost} from '../support/runAuthEmulator';

export {stripeEvent};

export const WEBHOOK_SECRET = 'whsec_test_secret_for_the_worker_suite';
export const MAILGUN_SIGNING_KEY = 'mailgun-signing-key-for-tests';
export const PRICE_ADVANCED = appConfig.plans[1]!.priceId.test;
export const PRICE_STARTER = appConfig.plans[0]!.priceId.test;
export {SITE_ORIGIN};

export interface SignedInUser {
  uid: string;
  email: string;
  idToken: string;
}

export interface EmulatorSession {
  uid: string;
  idToken: string;
  refreshToken: string;
  /** The ID token's claims. */
  claims: Record<string, unknown>;
}

export interface Stack {
  worker: RunningWorker;
  stripe: StripeStandIn;
  github: GitHubStandIn;
  mailgun: MailgunStandIn;
  emulatorHost: string;
  /**
   * A JSON call to the worker, with a bearer token when given. `cf`: what Cloudflare's edge says of
   * the connection (`request.cf`: its `country`), as Miniflare passes it to the worker.
   */
  call(
    path: string,
    options?: {
      method?: string;
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      cf?: Record<string, unknown>;
    },
  ): Promise<Response>;
  /** Delivers a Stripe event signed the way Stripe signs it (or with the given header). */
  deliver(
    event: Stripe.Event,
    options?: {signature?: string | null; payload?: string; timestamp?: number},
  ): Promise<Response>;
  /** A new account in the Auth emulator; `verified` marks its e-mail verified. */
  signUp(options?: {email?: string; verified?: boolean}): Promise<SignedInUser>;
  /** Marks the account's e-mail verified (as a magic-link sign-in would) and signs in again. */
  verify(user: SignedInUser): Promise<SignedInUser>;
  /** Signs in at the emulator as the e-mail's owner would: a sign-in link sent to the address. */
  signInWithEmailLink(email: string): Promise<EmulatorSession>;
  /** Signs in at the emulator with a password (the one `signUp` sets unless given); null when refused. */
  signInWithPassword(email: string, password?: string): Promise<EmulatorSession | null>;
  /** Sets the password of the session's account, as the site's /new-password page does. */
  setPassword(session: {idToken: string}, password: string): Promise<void>;
  /** Signs in at the emulator with a custom token (what the site does after the exchange). */
  signInWithCustomToken(token: string): Promise<EmulatorSession>;
  /** A fresh ID token for a session, or the emulator's refusal. */
  refresh(session: EmulatorSession): Promise<{ok: boolean; idToken?: string; error?: string}>;
  /** The claim Stripe's redirect brings the payer's browser with, from the session's success URL. */
  claimOf(sessionId: string): string;
  /** The checkout exchange as the payer's browser makes it (with the claim, unless given another). */
  exchange(sessionId: string, options?: {claim?: string | null; ip?: string}): Promise<Response>;
  /** A checkout the buyer completes and pays (the featured plan, unless `priceId` says); returns the session id. */
  /** `country`: where Cloudflare places the buyer (`request.cf.country`), for a fair price. */
  paidCheckout(options: {
    email: string;
    user?: SignedInUser;
    paid?: boolean;
    priceId?: string;
    /** Seats of a plan sold for teams (the body's `seats`); left out, the body has none. */
    seats?: number;
    country?: string;
    /** The card's fingerprint, as Stripe gives it: the same for every payment with that card (a card of its own by default). */
    cardFingerprint?: string;
    /** How the buyer paid: a card by default, or Link or Cash App (no card, no fingerprint). */
    paidWith?: PaidWith;
    /**
     * The buyer ticks Checkout's terms box, asking for the code at once: the session is the one the
     * worker makes with `checkout.requireTermsAcceptance` on (a switch compiled into it, off here).
     */
    termsAccepted?: boolean;
    /** A promotion code the buyer types at checkout; one Stripe refuses makes this throw Stripe's words. */
    promotionCode?: string;
    /** The affiliate visit the buyer's browser kept (POST /affiliateVisit's `referral`), sent with the checkout. */
    referral?: string;
  }): Promise<string>;
  /** The worker's checkout for the buyer, made and left open (paidCheckout's first half); returns the session id. */
  openCheckout(
    options: Pick<
      Parameters<Stack['paidCheckout']>[0],
      'email' | 'user' | 'priceId' | 'seats' | 'country' | 'termsAccepted' | 'referral'
    >,
  ): Promise<string>;
  /**
   * A new day for GitHub's cap on invitations: none sent in the last 24 hours, by the worker's
   * count (D1) and GitHub's (the stand-in), none waiting in the queue, and none of the requests
   * GitHub's secondary limits count in the last hour.
   */
  newDay(): Promise<void>;
  stop(): Promise<void>;
}

export const PASSWORD = 'correct horse battery staple';
export function signPayload(payload: string, timestamp = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET) {
  return signStripePayload(payload, secret, timestamp);
}

export function uniqueEmail(label = 'buyer') {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/**
 * Worker variables for Firebase as in production: no emulator, and a service account key made for
 * the test. Accounts that such a worker serves must be past their first verified sign-in
 * (`settleAccount`): nothing offline can ask Google about them.
 */
export async function productionFirebase(): Promise<WorkerVars> {
  return {FIREBASE_AUTH_EMULATOR_HOST: '', FIREBASE_SERVICE_ACCOUNT: await offlineServiceAccount()};
}

/** Records the account's first verified sign-in as done, as a real one leaves it. */
export function settleAccount(stack: Stack, uid: string) {
  return stack.worker.db.run(settledAccountSql(uid));
}

let guests = 0;
let exchanges = 0;

/**
 * `githubNow`: the GitHub stand-in's clock, for a test that lets days pass on GitHub's side.
 * `bundleDir`: another build of the worker (buildWorkerBundleWithConfig), for another choice in the config.
 * `migrateBefore`: a D1 at the migration before this one (startWorker), for a test of a migration.
 */
export async function startStack(
  overrides: WorkerVars = {},
  {
    githubNow,
    bundleDir,
    migrateBefore,
    plans,
  }: {
    githubNow?: () => number;
    bundleDir?: string;
    migrateBefore?: string;
    /** The plans a bundle built with another config sells, for the local Stripe to sell them too. */
    plans?: readonly Plan[];
  } = {},
): Promise<Stack> {
  const emulatorHost = runEmulatorHost();
  const [stripe, github, mailgun] = await Promise.all([
    startStripeStandIn({plans}),
    startGitHubStandIn({now: githubNow, extraRepositories: [EXTRA_FIXTURE_REPO]}),
    startMailgunStandIn(),
  ]);
  const closeStandIns = () => Promise.all([stripe.close(), github.close(), mailgun.close()]);
  // A worker that fails to start leaves no stand-in listening: it would keep the test runner from exiting.
  const worker = await startWorker(
    {
      ...baseVars(),
      FIREBASE_PROJECT_ID: EMULATOR_PROJECT,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      STRIPE_SECRET_KEY: 'sk_test_worker_suite',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      GITHUB_TOKEN: 'ghp_worker_suite',
      GITHUB_REPO: FIXTURE_REPO,
      GITHUB_API_URL: github.url,
      MAILGUN_API_KEY: 'key-worker-suite',
      MAILGUN_DOMAIN: 'mail.slipway.dev',
      MAILGUN_API_URL: mailgun.url,
      MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_SIGNING_KEY,
      ...overrides,
    },
    bundleDir,
    {migrateBefore},
  ).catch(async (error: unknown) => {
    await closeStandIns();
    throw error;
  });
  const identity = `http://${emulatorHost}/identitytoolkit.googleapis.com/v1`;

  async function emulator(path: string, body: unknown, owner = false) {
    const response = await fetch(`${identity}/${path}${owner ? '' : '?key=fake-api-key'}`, {
      method: 'POST',
      headers: {'content-type': 'application/json', ...(owner && {authorization: 'Bearer owner'})},
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`Emulator ${path}: ${JSON.stringify(json)}`);
    return json;
  }

  const stack: Stack = {
    worker,
    stripe,
    github,
    mailgun,
    emulatorHost,
    call(path, {method, token, body, headers = {}, cf} = {}) {
      return worker.fetch(path, {
        ...(cf && {cf}),
        method: method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(body !== undefined && {'content-type': 'application/json'}),
          ...(token && {authorization: `Bearer ${token}`}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    deliver(event, options = {}) {
      const payload = options.payload ?? JSON.stringify(event, null, 2);
      const signature = options.signature === undefined ? signPayload(payload, options.timestamp) : options.signature;
      return worker.fetch('/api/webhook/stripe', {
        method: 'POST',
        headers: {'content-type': 'application/json', ...(signature !== null && {'stripe-signature': signature})},
        body: payload,
      });
    },
    async signUp({email = uniqueEmail('user'), verified = false} = {}) {
      const created = await emulator('accounts:signUp', {email, password: PASSWORD, returnSecureToken: true});
      const user = {uid: created.localId as string, email, idToken: created.idToken as string};
      return verified ? stack.verify(user) : user;
    },
    async verify({uid, email}) {
      await emulator(`projects/${EMULATOR_PROJECT}/accounts:update`, {localId: uid, emailVerified: true}, true);
      const signedIn = await emulator('accounts:signInWithPassword', {
        email,
        password: PASSWORD,
        returnSecureToken: true,
      });
      return {uid, email, idToken: signedIn.idToken as string};
    },
    async signInWithEmailLink(email) {
      await emulator('accounts:sendOobCode', {
        requestType: 'EMAIL_SIGNIN',
        email,
        continueUrl: `${SITE_ORIGIN}/finish-sign-in`,
        canHandleCodeInApp: true,
      });
      const code = (await oobCodes(emulatorHost))
        .filter((candidate) => candidate.email === email && candidate.requestType === 'EMAIL_SIGNIN')
        .pop();
      if (!code) throw new Error(`The emulator sent no sign-in link to ${email}`);
      return session(
        await emulator('accounts:signInWithEmailLink', {email, oobCode: code.oobCode, returnSecureToken: true}),
      );
    },
    async signInWithPassword(email, password = PASSWORD) {
      const response = await fetch(`${identity}/accounts:signInWithPassword?key=fake-api-key`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({email, password, returnSecureToken: true}),
      });
      return response.ok ? session((await response.json()) as Record<string, unknown>) : null;
    },
    async setPassword({idToken}, password) {
      await emulator('accounts:update', {idToken, password, returnSecureToken: true});
    },
    async signInWithCustomToken(token) {
      return session(await emulator('accounts:signInWithCustomToken', {token, returnSecureToken: true}));
    },
    async refresh({refreshToken}) {
      const response = await fetch(`http://${emulatorHost}/securetoken.googleapis.com/v1/token?key=fake-api-key`, {
        method: 'POST',
        headers: {'content-type': 'application/x-www-form-urlencoded'},
        body: new URLSearchParams({grant_type: 'refresh_token', refresh_token: refreshToken}),
      });
      const body = (await response.json()) as {id_token?: string; error?: {message?: string}};
      return response.ok ? {ok: true, idToken: body.id_token} : {ok: false, error: body.error?.message};
    },
    claimOf(sessionId) {
      const successUrl = stripe.sessions.get(sessionId)?.success_url;
      const claim = successUrl && new URL(successUrl).searchParams.get(CHECKOUT_RETURN_PARAMS.claim);
      if (!claim) throw new Error(`Session ${sessionId} has no claim in its success URL`);
      return claim;
    },
    exchange(sessionId, {claim = stack.claimOf(sessionId), ip = `127.51.100.${exchanges++ % 250}`} = {}) {
      const query = new URLSearchParams({
        [CHECKOUT_RETURN_PARAMS.sessionId]: sessionId,
        ...(claim !== null && {[CHECKOUT_RETURN_PARAMS.claim]: claim}),
      });
      // Each exchange from its own address, so the per-IP limit only bites where a test wants it.
      return stack.call(`${API_PATHS.retrieveUserFromCheckoutSession}?${query}`, {headers: {'cf-connecting-ip': ip}});
    },
    async paidCheckout({paid = true, cardFingerprint, paidWith, promotionCode, ...opened}) {
      const id = await stack.openCheckout(opened);
      stripe.complete(id, {
        email: opened.email,
        paid,
        paidWith,
        ...(cardFingerprint && {cardFingerprint}),
        promotionCode,
      });
      return id;
    },
    async openCheckout({email, user, priceId = PRICE_ADVANCED, seats, country, termsAccepted, referral}) {
      const response = await stack.call('/createCheckoutSession', {
        token: user?.idToken,
        ...(country && {cf: {country}}),
        // Guests are rate-limited by address: each one comes from its own (on loopback: emulator
        // mode answers no other caller, and 127.0.0.0/8 has addresses enough).
        headers: {'cf-connecting-ip': `127.200.${Math.floor(guests / 250) % 250}.${guests++ % 250}`},
        body: {priceId, successUrl: `${SITE_ORIGIN}/success`, cancelUrl: `${SITE_ORIGIN}/`, email, seats, referral},
      });
      if (response.status !== 200) throw new Error(`Checkout failed: ${response.status} ${await response.text()}`);
      const {url} = (await response.json()) as {url: string};
      const id = /cs_test_\w+/.exec(url)![0];
      if (termsAccepted) {
        const switches = {...appConfig.checkout, requireTermsAcceptance: true};
        const made = stripe.sessions.get(id)!;
        Object.assign(made, checkoutOptions(SITE_ORIGIN, switches), {
          metadata: {...made.metadata, ...consentMetadata(switches)},
        });
      }
      return id;
    },
    async newDay() {
      github.invitationTimes.length = 0;
      github.extra(EXTRA_FIXTURE_REPO).invitationTimes.length = 0;
      // A day on, no request of the last minute or hour counts against GitHub's secondary limits.
      github.contentRequestTimes.length = 0;
      await worker.db.run('DELETE FROM invitations_sent');
      await worker.db.run('UPDATE grants SET waiting_at = NULL');
    },
    async stop() {
      await worker.dispose();
      await closeStandIns();
    },
  };
  return stack;
}

function session(answer: Record<string, unknown>): EmulatorSession {
  const idToken = answer.idToken as string;
  const claims = claimsOf(idToken);
  return {uid: claims.sub as string, idToken, refreshToken: answer.refreshToken as string, claims};
}

/** A JWT's payload, unverified: what the test reads of the tokens it was given. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** A refund of a paid session's charge, as Stripe sends it: full unless `refunded` is false. */
export function refundEvent(stack: Stack, sessionId: string, refunded = true) {
  const session = stack.stripe.sessions.get(sessionId)!;
  return stripeEvent('charge.refunded', {
    id: `ch_${sessionId.slice(-10)}`,
    object: 'charge',
    amount: 9900,
    amount_refunded: refunded ? 9900 : 1000,
    refunded,
    payment_intent: session.payment_intent as string,
  } as Stripe.Charge);
}

/** A dispute of a paid session's charge opened or closed, as Stripe sends it. */
export function disputeEvent(
  stack: Stack,
  sessionId: string,
  type: 'charge.dispute.created' | 'charge.dispute.closed',
  status: Stripe.Dispute.Status,
  id = `dp_${sessionId.slice(-10)}`,
) {
  const session = stack.stripe.sessions.get(sessionId)!;
  return stripeEvent(type, {
    id,
    object: 'dispute',
    amount: 9900,
    status,
    charge: `ch_${sessionId.slice(-10)}`,
    payment_intent: session.payment_intent as string,
  } as Stripe.Dispute);
}

/**
 * A refund at the Stripe stand-in of a paid session's payment, all of it or `amount` cents, as the
 * seller makes one in Stripe's dashboard; then Stripe's `charge.refunded`, delivered to the worker.
 */
export async function refundAtStripe(stack: Stack, sessionId: string, amount?: number) {
  const intent = stack.stripe.sessions.get(sessionId)!.payment_intent as string;
  const refund = await fetch(`${stack.stripe.url}/v1/refunds`, {
    method: 'POST',
    headers: {authorization: 'Bearer sk_test_worker_suite', 'content-type': 'application/x-www-form-urlencoded'},
    body: new URLSearchParams({payment_intent: intent, ...(amount !== undefined && {amount: String(amount)})}),
  });
  if (refund.status !== 200)
    throw new Error(`The stand-in refused the refund: ${refund.status} ${await refund.text()}`);
  const delivered = await stack.deliver(stack.stripe.refundedEvent(intent));
  if (delivered.status !== 200)
    throw new Error(`The worker answered charge.refunded ${delivered.status}: ${await delivered.text()}`);
}

/**
 * The upgrade's Checkout Session the worker makes for the buyer (`body`: POST /createUpgradeSession's,
 * a plan id and the return URLs), its id.
 */
export async function upgradeSessionOf(
  stack: Stack,
  user: SignedInUser,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await stack.call(API_PATHS.createUpgradeSession, {method: 'POST', token: user.idToken, body});
  if (response.status !== 200)
    throw new Error(`The worker answered createUpgradeSession ${response.status}: ${await response.text()}`);
  const {url} = (await response.json()) as {url: string};
  return /cs_test_\w+/.exec(url)![0];
}

/** The buyer pays an upgrade's session at the Stripe stand-in, and Stripe tells the worker. */
export async function payUpgradeOf(stack: Stack, user: SignedInUser, sessionId: string, eventId?: string) {
  stack.stripe.complete(sessionId, {email: user.email, paid: true});
  const delivered = await stack.deliver(completedEvent(stack, sessionId, eventId));
  if (delivered.status !== 200)
    throw new Error(
      `The worker answered the upgrade's checkout.session.completed ${delivered.status}: ${await delivered.text()}`,
    );
}

/** A completed session's event, as Stripe sends it. */
export function completedEvent(stack: Stack, sessionId: string, id?: string) {
  return stripeEvent('checkout.session.completed', stack.stripe.sessions.get(sessionId)!, id);
}

/**
 * The test file's stack with one seller let into the console (a verified e-mail of its own: the
 * worker test files share one Auth emulator), started before the file's tests and stopped after.
 * The repository's owner is exempt from the audit, as a seller sets it.
 */
export function useSellerStack(
  overrides: WorkerVars = {},
  options?: Parameters<typeof startStack>[1],
): {readonly stack: Stack; readonly admin: SignedInUser} {
  const seller = {} as {stack: Stack; admin: SignedInUser};
  const email = uniqueEmail('seller');
  beforeAll(async () => {
    seller.stack = await startStack({ADMIN_EMAILS: email, GITHUB_EXEMPT: OWNER, ...overrides}, options);
    seller.admin = await seller.stack.signUp({email, verified: true});
  });
  afterAll(() => seller.stack.stop());
  return seller;
}
