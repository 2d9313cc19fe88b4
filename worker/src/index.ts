import {contextOf} from './context';
import {drainQueues} from './access/grants/drainQueue';
import {resendExpiringInvitations} from './access/grants/expiryResends';
import {runScheduledAudit} from './admin/scheduledAudit';
import {CRON_BATCHES} from './cronBatches';
import {step} from './cronStep';
import {runDueJobs} from './outbox';
import {pruneLimits} from './rateLimit';
import {pruneRecords} from './retention';
import {log} from './log';
import {settingsOf} from './settings';
import {app} from './routes';

/**
 * The Worker: its routes (routes.ts) answer requests; the scheduled handler drains the invitation
 * queue and the outbox, sends expiring invitations again and runs the daily repository audit.
 */
export default {
  fetch: app.fetch,
  async scheduled(_controller, env) {
    settingsOf(env); // a worker set up wrongly does no work at all
    const context = contextOf(env);
    // The invitation queue first: on a launch day it is what buyers wait for. Then the outbox, then
    // the healing steps, which take only the slots of the cap the queue left (CRON_BATCHES bounds each).
    const invited = await step('invitation_queue', () =>
      drainQueues(context, CRON_BATCHES.invitationQueue, CRON_BATCHES.extraGrants),
    );
    const ran = await step('outbox', () => runDueJobs(context));
    const resent = await step('expiry_resends', () => resendExpiringInvitations(context, CRON_BATCHES.expiryResends));
    const audit = await step('scheduled_audit', () => runScheduledAudit(context, CRON_BATCHES.auditFixes));
    await step('prune', async () => {
      await pruneLimits(env.DB);
      await pruneRecords(env.DB);
    });
    log.info('cron.done', {jobs: ran, invited, resent, reinvited: audit?.reinvited.length ?? 0});
  },
} satisfies ExportedHandler<Env>;
