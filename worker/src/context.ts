import {type Settings, settingsOf} from './settings';
import {releaseBatchesPerInvocation} from './freePlan';
import {SubrequestBudget} from './subrequests';

/**
 * What the worker's work runs with, in a request or in the cron: the database, the settings, and
 * the subrequests this invocation has left. Make one per invocation and pass it down, so that
 * everything the invocation does spends from the same budget.
 */
export interface Context {
  db: D1Database;
  settings: Settings;
  subrequests: SubrequestBudget;
  /**
   * Release batches this invocation may still send: one on Cloudflare's Free plan, whose 10 ms of
   * CPU a batch takes half of (cronBatches.ts); no limit on the Paid plan.
   */
  releaseBatchesLeft: number;
}

export function contextOf(env: Env): Context {
  const settings = settingsOf(env);
  return {
    db: env.DB,
    settings,
    subrequests: new SubrequestBudget(settings.subrequestLimit),
    releaseBatchesLeft: releaseBatchesPerInvocation(settings),
  };
}
