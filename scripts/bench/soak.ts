/**
 * `npm run bench:soak`: the worker under `wrangler dev` with a steady mix of traffic for 5 minutes
 * (`SOAK_SECONDS` to try it shorter): userHasPaid, Stripe webhooks (events it only records, paid
 * checkouts that fulfil a purchase and queue two e-mails, and repeats of those as Stripe sends
 * when an answer is lost), new leads, and the public GETs (the health check at `/api`, the
 * analytics script, a checkout exchange with a malformed id).
 *
 * The rate is half the throughput bench:worker measures, in this same run and the same way: each
 * of the mix's routes alone at full load (10 connections, 5 s after a 2 s warm-up) on a `wrangler
 * dev` of its own with no DevTools client, and from those the rate the mix would reach if each
 * request cost what it costs alone. That wrangler is then stopped and the soak gets a fresh one,
 * whose inspector the heap probe holds from the start. Under wrangler 4.86
 * (scripts/bench/README.md):
 * - a DevTools client costs every route about a third of its throughput, so the measurement has
 *   none;
 * - wrangler keeps every inspector message until a client connects and then replays them all, so
 *   the probe cannot join a wrangler that has already been loaded;
 * - the whole mix at full load leaves thousands of sockets in CLOSE-WAIT, so the routes are loaded
 *   one at a time;
 * - now and then its proxy loses a request on the way to the worker: a GET it sends again, a POST
 *   it answers with a 503 of its own saying the worker restarted when it did not (`PROXY_LOST`),
 *   and one for `/` ends wrangler dev. So those 503s are counted apart from the worker's answers,
 *   while the worker's isolate stays the one the soak started with, and nothing asks for `/`.
 * `SOAK_RATE=<req/s>` skips the measurement and uses the given rate instead.
 *
 * It prints the requests sent, the answers by route and status, and the worker's memory at one
 * minute (or at a fifth of a shorter run; the load pauses for that reading), each minute after,
 * and at the end: the worker isolate's V8 heap after a full collection (`isolateHeap.ts`), its live
 * data, with the reading just before the collection beside it, and the RSS of the workerd processes
 * that `wrangler dev` started (from /proc). `SOAK_SNAPSHOTS=<directory>` also writes a heap
 * snapshot of the isolate there at the first reading and at the end, to compare in Chrome
 * DevTools' Memory panel.
 *
 * The heap is what is judged: it is the worker's own memory, the one Cloudflare limits (128 MB an
 * isolate). workerd's RSS under `wrangler dev` also holds wrangler's dev proxy and the local D1
 * simulator, whose database grows with every row the soak stores. It is printed, not judged.
 * Exits 1 on any 5xx of the worker or failed request, when the worker restarted (its isolate's id
 * changed), or when the heap at the end is more than 10% above that at one minute (both read with
 * no request in flight). A benchmark, not a test: it is not part of `npm test`.
 *
 * Everything runs offline: Stripe and Mailgun are the local stand-ins `npm start` uses, and the
 * analytics script comes from a small server here.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import {appConfig, PLAN_CURRENCY, planAmount} from '../../src/config';
import {SAME_ORIGIN_PREFIX} from '../../src/config/api';
import {startMailgunStandIn} from '../local/mailgunApi';
import {startStripeStandIn, stripeEvent, type StripeStandIn} from '../local/stripeApi';
import {listen} from '../support/listen';
import {probeHeap} from './isolateHeap';
import {workerdMemory} from './procStats';
import {load} from './load';
import {runWorkerBench} from './workerBench';
import {type BenchRequest, newLeads, recordedEvents, signedEvent, userHasPaid} from './workerRequests';
import {inspectorPortOf, processGroupOf, reloadsOf, stopWrangler} from './wranglerDev';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const SNAPSHOT_DIR = process.env.SOAK_SNAPSHOTS;
const GIVEN_RATE = process.env.SOAK_RATE === undefined ? undefined : Number(process.env.SOAK_RATE);
const CONNECTIONS = 10;
const MEASURE_SECONDS = 5;
const WARM_UP_SECONDS = 2;
const FIRST_SAMPLE_SECONDS = Math.min(60, SOAK_SECONDS / 5);
/** How much the worker's memory may grow from the first sample to the end. */
const MAX_GROWTH = 0.1;
const WEBHOOK_SECRET = 'whsec_soak';
const USER_ID = 'soak-user';

interface Route {
  name: string;
  next(): BenchRequest;
}

/**
 * Paid checkouts as Stripe reports them: a completed session on the Stripe stand-in and its
 * signed `checkout.session.completed`. Every third delivery repeats the one before.
 */
function paidCheckouts(stripe: StripeStandIn): () => BenchRequest {
  const plan = appConfig.plans[0]!;
  let count = 0;
  let last: BenchRequest | undefined;
  return () => {
    const n = ++count;
    if (last && n % 3 === 0) return last;
    const session = stripe.add({
      status: 'complete',
      payment_status: 'paid',
      customer: `cus_soak_${n}`,
      payment_intent: `pi_soak_${n}`,
      customer_details: {email: `soak.buyer.${n}@example.com`} as Stripe.Checkout.Session.CustomerDetails,
      amount_total: planAmount(plan),
      currency: PLAN_CURRENCY,
      metadata: {plan: plan.name, priceId: plan.priceId.test},
    });
    last = signedEvent(stripeEvent('checkout.session.completed', session, `evt_soak_paid_${n}`), WEBHOOK_SECRET);
    return last;
  };
}

/** A checkout exchange from a new address each time, with an id that is not a session id: 400. */
function malformedExchanges(): () => BenchRequest {
  let count = 0;
  return () => {
    const n = ++count;
    const ip = `10.200.${(n >> 8) & 255}.${n & 255}`;
    return {
      method: 'GET',
      path: '/retrieveUserFromCheckoutSession?sessionId=not-a-session',
      headers: {'cf-connecting-ip': ip},
    };
  };
}

function mix(stripe: StripeStandIn, token: string): Route[] {
  const route = (name: string, next: () => BenchRequest) => ({name, next});
  const get = (path: string) => () => ({method: 'GET' as const, path, headers: {}});
  const paid = route('userHasPaid', userHasPaid(USER_ID, token));
  const recorded = route('webhook (recorded)', recordedEvents(WEBHOOK_SECRET, 'soak'));
  const checkout = route('webhook (paid checkout)', paidCheckouts(stripe));
  const lead = route('/api/leads', newLeads('soak'));
  const home = route(`GET ${HEALTH_PATH}`, get(HEALTH_PATH));
  const script = route('GET analytics script', get('/plausible/js/script.js'));
  const exchange = route('GET exchange (bad id)', malformedExchanges());
  // 20 requests in an order that spreads each route over the cycle.
  return [
    paid,
    recorded,
    lead,
    home,
    paid,
    checkout,
    lead,
    paid,
    recorded,
    script,
    paid,
    lead,
    recorded,
    home,
    paid,
    exchange,
    lead,
    recorded,
    paid,
    checkout,
  ];
}

/**
 * What wrangler 4.86's dev proxy answers, itself, when its connection to the worker's workerd
 * fails under a POST (`templates/startDevWorker/ProxyWorker.ts`; a GET it sends again). It says
 * the worker restarted, but it says so for every such failure: it compares the request's whole
 * URL with the worker's bare origin, which never match. The failure itself is likely the one of
 * workers-sdk#14641 (two 5-second idle timeouts of the proxy's pooled connections meeting). The
 * worker never wrote this answer, so it is counted apart, and only while the worker's isolate is the
 * one the soak started with.
 */
const PROXY_LOST = 'Your worker restarted mid-request.';

/**
 * The worker's health check, as the site asks for it (under SAME_ORIGIN_PREFIX), not at `/`: the
 * same comparison matches for `/` alone, and there wrangler 4.86 takes a lost connection for a
 * fatal error and exits, ending the soak (seen here at load 22 on 2 cores).
 */
const HEALTH_PATH = SAME_ORIGIN_PREFIX;

/** Runs the mix in turn, tallying each route's answers by status and keeping the first 5xx bodies. */
function mixed(routes: Route[]) {
  const tally = new Map<string, Map<number, number>>();
  const serverErrors: string[] = [];
  const proxyLost = new Map<string, number>();
  let turn = 0;
  const next = () => {
    const route = routes[turn++ % routes.length]!;
    return {route, request: route.next()};
  };
  const count = (name: string, status: number, body: string) => {
    if (status === 503 && body.startsWith(PROXY_LOST)) {
      proxyLost.set(name, (proxyLost.get(name) ?? 0) + 1);
      return;
    }
    const byStatus = tally.get(name) ?? new Map<number, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    tally.set(name, byStatus);
    if (status >= 500 && serverErrors.length < 5) serverErrors.push(`${name}: ${status} ${body.slice(0, 300)}`);
  };
  return {next, count, tally, serverErrors, proxyLost};
}

/** Each route's requests per second alone at full load, measured as bench:worker measures. */
async function routeThroughputs(baseUrl: string, routes: Route[]): Promise<Map<string, number>> {
  const throughput = new Map<string, number>();
  for (const route of new Set(routes)) {
    const target = {baseUrl, next: () => route.next()};
    await load(target, {seconds: WARM_UP_SECONDS, connections: CONNECTIONS});
    const full = await load(target, {seconds: MEASURE_SECONDS, connections: CONNECTIONS});
    const serverErrors = Object.keys(full.statusCodeStats ?? {}).filter((status) => Number(status) >= 500);
    if (full.errors > 0 || serverErrors.length > 0) {
      throw new Error(
        `${route.name} alone at full load: ${full.errors} failed requests, answers ${JSON.stringify(full.statusCodeStats)}`,
      );
    }
    throughput.set(route.name, full.requests.average);
  }
  return throughput;
}

/**
 * The mix's requests per second if each request takes the time it takes alone: a cycle of the mix
 * costs the sum of its requests' times (1 / each one's throughput).
 */
function mixThroughput(routes: Route[], throughput: Map<string, number>): number {
  const cycleSeconds = routes.reduce((sum, route) => sum + 1 / throughput.get(route.name)!, 0);
  return routes.length / cycleSeconds;
}

/** The analytics script Plausible would serve, from loopback. */
async function servePlausible() {
  const server = http.createServer((request, response) => {
    if (request.url === '/js/script.js')
      response.writeHead(200, {'content-type': 'application/javascript'}).end('/* plausible */');
    else response.writeHead(404).end();
  });
  return listen(server);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const signed = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;

for (const [variable, value] of [
  ['SOAK_SECONDS', SOAK_SECONDS],
  ['SOAK_RATE', GIVEN_RATE ?? 1],
] as const) {
  if (!(value > 0)) throw new Error(`${variable} must be a positive number, not ${process.env[variable]}`);
}

runWorkerBench({name: 'soak', user: {uid: USER_ID, email: 'soak@example.com'}}, async ({token, startWorker}) => {
  const [stripe, mailgun, plausible] = await Promise.all([
    startStripeStandIn(),
    startMailgunStandIn(),
    servePlausible(),
  ]);
  try {
    const vars = {
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_soak',
      STRIPE_API_URL: stripe.url,
      MAILGUN_API_KEY: 'key-soak',
      MAILGUN_DOMAIN: 'mg.example.com',
      MAILGUN_API_URL: mailgun.url,
      PLAUSIBLE_HOST: plausible.url,
    };
    // One mix for both phases: every Stripe event and lead stays new.
    const routes = mix(stripe, token);

    let rate = GIVEN_RATE;
    if (rate === undefined) {
      console.log(
        'Measuring each route alone at full load, as bench:worker does (its own wrangler dev, no DevTools client)…',
      );
      const measureUrl = await startWorker(vars);
      const throughput = await routeThroughputs(measureUrl, routes);
      await stopWrangler(measureUrl);
      const mixRate = mixThroughput(routes, throughput);
      rate = Math.max(1, Math.floor(mixRate / 2));
      for (const [name, perSecond] of throughput) console.log(`  ${name.padEnd(26)}${perSecond.toFixed(0)} req/s`);
      console.log(`The mix at those costs: ${mixRate.toFixed(0)} req/s; soaking at half: ${rate} req/s`);
    } else {
      console.log(`Soaking at SOAK_RATE: ${rate} req/s`);
    }

    const logFile = path.join(os.tmpdir(), `slipway-soak-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
    console.log(`Starting the worker for the soak under wrangler dev (its output goes to ${logFile})…`);
    const workerUrl = await startWorker(vars, logFile);
    const group = processGroupOf(workerUrl);
    // Before any load: wrangler's inspector proxy keeps every message of the worker's inspector (a
    // console event per log line) in memory until a DevTools client connects, then replays them all
    // to it. Connected from the start, the probe takes them as they come.
    const wake = () =>
      fetch(`${workerUrl}${HEALTH_PATH}`, {signal: AbortSignal.timeout(10_000)}).then((response) =>
        response.arrayBuffer(),
      );
    const heap = await probeHeap(inspectorPortOf(workerUrl), wake);
    const isolateAtStart = await heap.isolateId();
    if (SNAPSHOT_DIR) fs.mkdirSync(SNAPSHOT_DIR, {recursive: true});

    const soak = mixed(routes);
    const started = Date.now();
    const elapsed = () => (Date.now() - started) / 1000;
    const samples: {at: number; rss: number; heap: number; paused: boolean}[] = [];
    /** A reading after a full collection: `paused` when the load is stopped, none in flight. */
    const sample = async (at: number, paused: boolean, snapshotName?: string) => {
      const {rss, each} = workerdMemory(group);
      const reading = await heap.collected().catch((error: Error) => {
        console.log(`  ${at.toFixed(0).padStart(4)} s: the isolate heap could not be read: ${error.message}`);
        return undefined;
      });
      samples.push({at, rss, heap: reading?.after ?? NaN, paused});
      if (!reading) return;
      const {after, before} = reading;
      const heapText = `worker isolate heap after a full collection ${megabytes(after)} (${megabytes(before)} before it)`;
      const when = paused ? 'load paused' : 'under load';
      console.log(
        `  ${at.toFixed(0).padStart(4)} s, ${when}: ${heapText}; workerd RSS ${megabytes(rss)} (${each.map(megabytes).join(' + ')})`,
      );
      if (SNAPSHOT_DIR && snapshotName) {
        const file = path.join(SNAPSHOT_DIR, `${snapshotName}.heapsnapshot`);
        await heap.snapshot(file).then(
          () => console.log(`        heap snapshot: ${file}`),
          (error: Error) => console.log(`        no heap snapshot: ${error.message}`),
        );
      }
    };
    const run = (seconds: number) =>
      load(
        {
          baseUrl: workerUrl,
          next: (context) => {
            const {route, request} = soak.next();
            context.route = route.name;
            return request;
          },
          onResponse: (status, body, context) => soak.count(String(context.route), status, body),
        },
        {seconds, connections: CONNECTIONS, overallRate: rate},
      );
    // The judged readings are taken with no request in flight, at the end of the first minute (the
    // load paused for it) and at the end: under load, the requests in flight hold a megabyte or so
    // (readings at the minutes between swung from 10.1 to 11.6 MB while the end read 9.9 each run).
    console.log(`Soaking for ${SOAK_SECONDS} s…`);
    const warmUp = await run(FIRST_SAMPLE_SECONDS);
    await sample(elapsed(), true, 'first');
    const resumed = elapsed();
    const sampling: Promise<void>[] = [];
    const timers = Array.from({length: Math.floor(SOAK_SECONDS / 60)}, (_, i) => (i + 1) * 60)
      .filter((at) => at > FIRST_SAMPLE_SECONDS && at < SOAK_SECONDS)
      .map((at) => setTimeout(() => sampling.push(sample(at, false)), (at - resumed) * 1000));
    const rest = await run(SOAK_SECONDS - FIRST_SAMPLE_SECONDS);
    timers.forEach(clearTimeout);
    await Promise.all(sampling);
    await sample(elapsed(), true, 'end');
    const result = {total: warmUp.requests.total + rest.requests.total, errors: warmUp.errors + rest.errors};
    const isolateAtEnd = await heap.isolateId().catch((error: Error) => `unknown (${error.message})`);
    const reloads = reloadsOf(workerUrl);
    heap.close();

    const first = samples[0]!;
    const end = samples.at(-1)!;
    const growth = end.heap / first.heap - 1;
    const serverErrors = [...soak.tally.values()].reduce(
      (sum, byStatus) => sum + [...byStatus].filter(([status]) => status >= 500).reduce((s, [, n]) => s + n, 0),
      0,
    );

    console.log(
      `\nRequests: ${result.total} in ${SOAK_SECONDS} s (${(result.total / SOAK_SECONDS).toFixed(1)} req/s, target ${rate}); failed requests (timeouts, resets): ${result.errors}`,
    );
    for (const [name, byStatus] of soak.tally) {
      const statuses = [...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      console.log(`  ${name.padEnd(26)}${statuses}`);
    }
    console.log(`E-mails sent to the Mailgun stand-in: ${mailgun.sent.length}`);
    console.log(`5xx answers: ${serverErrors}`);
    for (const line of soak.serverErrors) console.log(`  ${line}`);
    const proxyLost = [...soak.proxyLost.values()].reduce((sum, n) => sum + n, 0);
    const restarted = isolateAtEnd !== isolateAtStart;
    console.log(
      `The worker's isolate: ${isolateAtStart} at the start, ${restarted ? isolateAtEnd : 'the same'} at the end`,
    );
    // A file the bundle was built from changed (this worktree's, or one behind a node_modules link).
    if (reloads > 0)
      console.log(
        `wrangler dev rebuilt and restarted the worker ${reloads} time(s) during the soak: a file of its bundle changed`,
      );
    if (proxyLost > 0) {
      const byRoute = [...soak.proxyLost].map(([name, n]) => `${name} ${n}`).join(', ');
      console.log(
        `Requests wrangler dev's proxy lost on the way to the worker (its 503 "${PROXY_LOST}"): ${proxyLost} (${byRoute})`,
      );
    }
    console.log(
      `worker isolate heap after a full collection, load paused: ${megabytes(first.heap)} at ${first.at.toFixed(0)} s, ${megabytes(end.heap)} at the end (${signed(growth)}; limit +${MAX_GROWTH * 100}%)`,
    );
    console.log(
      `workerd RSS (wrangler dev's processes): ${megabytes(first.rss)} at ${first.at.toFixed(0)} s, ${megabytes(end.rss)} at the end (${signed(end.rss / first.rss - 1)}; printed, not judged)`,
    );

    const problems = [
      ...(serverErrors > 0 ? [`${serverErrors} answers were 5xx`] : []),
      ...(restarted
        ? [
            `the worker restarted (isolate ${isolateAtStart}, then ${isolateAtEnd}${reloads > 0 ? `; wrangler dev reloaded it ${reloads} time(s)` : ''})`,
          ]
        : []),
      ...(result.errors > 0 ? [`${result.errors} requests failed`] : []),
      ...(!(growth <= MAX_GROWTH)
        ? [
            Number.isNaN(growth)
              ? 'the isolate heap could not be read'
              : `the worker's heap grew ${(growth * 100).toFixed(1)}%`,
          ]
        : []),
    ];
    console.log(
      problems.length ? `\nFAILED: ${problems.join('; ')}` : "\nPassed: no 5xx, and the worker's memory held.",
    );
    return problems.length === 0;
  } finally {
    await Promise.all([stripe.close(), mailgun.close(), plausible.close()]);
  }
});
