/**
 * One Lighthouse run, with Lighthouse's defaults (mobile, simulated throttling), in a Chromium
 * that already runs with its DevTools port open, reduced to the figures `npm run audit` prints.
 */
import {lookup} from 'node:dns/promises';
import type {Figures} from './auditReport';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export interface RunOptions {
  /** The browser's `--remote-debugging-port`. */
  port: number;
  /** Keep the profile's storage (a signed-in session) instead of clearing the origin's first. */
  keepStorage?: boolean;
  /**
   * This machine resolves no public host name (`resolvesPublicNames`). A request to another host
   * then fails its DNS lookup whatever the page does, so errors-in-console leaves that one failure
   * (`ERR_NAME_NOT_RESOLVED`) out, and the run lists the addresses it could not reach instead.
   */
  offline?: boolean;
}

/** Lighthouse's own default for errors-in-console, kept when the offline pattern is added. */
const IGNORED_BY_DEFAULT = 'ERR_BLOCKED_BY_CLIENT.Inspector';
const DNS_FAILURE = 'ERR_NAME_NOT_RESOLVED';

/** Whether this machine can look a public host name up; the audit runs offline when it cannot. */
export async function resolvesPublicNames(host = 'apis.google.com'): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000).unref());
  return Promise.race([
    lookup(host).then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
}

export interface Run {
  figures: Figures;
  /**
   * Lighthouse's measure of how fast this machine was during the run; a busy machine makes every
   * page look slower (Lighthouse calls under 1000 underpowered for its throttling).
   */
  benchmarkIndex: number;
}

export async function runLighthouse(
  url: string,
  {port, keepStorage = false, offline = false}: RunOptions,
): Promise<Run> {
  // Lighthouse is an ES module; the scripts run as CommonJS.
  const {default: lighthouse} = await import('lighthouse');
  const config = offline
    ? {
        extends: 'lighthouse:default',
        audits: [{path: 'errors-in-console', options: {ignoredPatterns: [IGNORED_BY_DEFAULT, DNS_FAILURE]}}],
      }
    : undefined;
  const result = await lighthouse(
    url,
    {port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: keepStorage},
    config,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
  const {lhr} = result;
  if (lhr.runtimeError)
    throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  // A page that sent the browser elsewhere (a lost session sends /dashboard to /signin) is not the page asked for.
  const landed = new URL(lhr.finalDisplayedUrl);
  if (landed.pathname !== new URL(url).pathname)
    throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}: Lighthouse measured another page.`);

  const score = (id: (typeof CATEGORIES)[number]) => {
    const value = lhr.categories[id]?.score;
    if (value === null || value === undefined) throw new Error(`Lighthouse gave ${url} no ${id} score.`);
    return Math.round(value * 100);
  };
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse's ${id} audit has no value for ${url}.`);
    return value;
  };
  // The scored audits of a category that did not pass (informative and skipped ones have no weight).
  const failing = (id: (typeof CATEGORIES)[number]) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
  const figures: Figures = {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    bytes: numeric('total-byte-weight'),
    failing: {accessibility: failing('accessibility'), bestPractices: failing('best-practices'), seo: failing('seo')},
    consoleErrors: consoleErrors(lhr.audits['errors-in-console']?.details),
    ...(offline && {unreachable: unreachable(lhr.audits['network-requests']?.details, new URL(url).host)}),
  };
  return {figures, benchmarkIndex: lhr.environment.benchmarkIndex};
}

/** Each error the page logged, with the address it names: "Failed to load resource: … (https://…)". */
function consoleErrors(details: unknown): string[] {
  const items =
    (details as {items?: {description?: string; sourceLocation?: {url?: string}}[]} | undefined)?.items ?? [];
  return items.map(({description = '', sourceLocation}) =>
    sourceLocation?.url ? `${description} (${sourceLocation.url})` : description,
  );
}

/** The requests to other hosts that got no answer (status -1, as Lighthouse records a failed fetch). */
function unreachable(details: unknown, ownHost: string): string[] {
  const items = (details as {items?: {url?: string; statusCode?: number}[]} | undefined)?.items ?? [];
  return items
    .filter(({url = '', statusCode = 0}) => statusCode <= 0 && /^https?:/.test(url) && new URL(url).host !== ownHost)
    .map(({url}) => url!);
}
