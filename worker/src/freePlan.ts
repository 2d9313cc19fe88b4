/**
 * Cloudflare's Free plan, as the worker sizes its work for it: an invocation (a request, or a cron
 * run) may make 50 subrequests and use 10 ms of CPU (developers.cloudflare.com/workers/platform/limits).
 * SUBREQUEST_LIMIT says which plan the worker runs on: 50, as committed, is the Free plan; the
 * Paid plan's 10,000 lifts these bounds. No imports: the benchmarks read these figures too.
 */

/** The subrequests an invocation may make on the Free plan: a SUBREQUEST_LIMIT at or under it means that plan. */
export const FREE_PLAN_SUBREQUESTS = 50;

/** Whether the worker is set up for the Free plan. */
export function onFreePlan(settings: {subrequestLimit: number}): boolean {
  return settings.subrequestLimit <= FREE_PLAN_SUBREQUESTS;
}

/**
 * Recipients of one release batch on the Free plan. A batch's CPU grows with its recipients (a
 * signed unsubscribe link each, their variables, the body sent): about 29 µs each in workerd, so
 * 150 take about 4.4 ms. `npm run bench:release-cpu` times it and checks this size against
 * FREE_PLAN_BATCH_CPU_MS.
 */
export const FREE_PLAN_RELEASE_BATCH = 150;

/** The share of a Free plan invocation's 10 ms one release batch may take: the rest is the run's other steps. */
export const FREE_PLAN_BATCH_CPU_MS = 5;

/** Release batches one invocation sends at most: one on the Free plan (the next waits for the next cron run), any number on the Paid plan. */
export function releaseBatchesPerInvocation(settings: {subrequestLimit: number}): number {
  return onFreePlan(settings) ? 1 : Number.POSITIVE_INFINITY;
}
