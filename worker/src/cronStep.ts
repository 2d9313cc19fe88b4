import {describe} from './errors';
import {log} from './log';

/**
 * One step of the cron, or one part of a step: a failure is logged (`cron.step_failed`), and the
 * steps after it still run.
 */
export async function step<T>(name: string, work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    log.error('cron.step_failed', {step: name, error: describe(err)});
    return null;
  }
}
