/**
 * The worker's cron, run locally. Deployed, Cloudflare runs the worker's scheduled handler on
 * `worker/wrangler.jsonc`'s trigger; `wrangler dev` runs none, so `npm start` asks wrangler's own
 * test route (`--test-scheduled`) once a minute, and a test that needs the next run calls it now.
 */

/** `worker/wrangler.jsonc`'s cron trigger: the expression the scheduled handler is given. */
export const CRON = '*/5 * * * *';

/** How often `npm start` runs it: more often than deployed, so that a queued job moves while one watches. */
export const LOCAL_CRON_EVERY_MS = 60_000;

/** One run of the scheduled handler in `wrangler dev` at `workerUrl`, answered once the run is over. */
export async function runCron(workerUrl: string): Promise<void> {
  const answer = await fetch(`${workerUrl}/__scheduled?cron=${encodeURIComponent(CRON)}`);
  if (!answer.ok) throw new Error(`The cron run failed: ${answer.status} ${await answer.text()}`);
}
