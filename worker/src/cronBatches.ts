import {appConfig} from '../../src/config';

/**
 * How much each step of the cron does in one run, in one place. Cloudflare's Free plan gives a
 * cron invocation 50 subrequests (and 10 ms of CPU); each step does a bounded batch and the next
 * run (every 5 minutes) carries on where it stopped. The figures are GitHub and Mailgun calls;
 * each step also stops before an item the invocation's SubrequestBudget (subrequests.ts) cannot fit.
 */
export const CRON_BATCHES = {
  /**
   * Queued invitations sent a run from each repository's line, the kit's first (access/grants/drainQueue.ts):
   * up to 5 calls each (see appConfig.repository.queueBatch).
   */
  invitationQueue: appConfig.repository.queueBatch,
  /**
   * Invitations sent again as they expire, of every repository, a run (access/grants/expiryResends.ts):
   * one listing per repository, then up to 8 calls each (the status read of one no longer listed,
   * the login by id, the check, the withdrawal, the invitation, a stale one's withdrawal, the e-mail).
   */
  expiryResends: 3,
  /**
   * Missing paid buyers the scheduled repository audit invites again, a run: the audit's two
   * listings, up to 5 calls each, and the seller's digest.
   */
  auditFixes: 3,
  /**
   * Purchases whose extra grants wait with no place in a line (access/grants/reconcile.ts
   * reconcileUnplacedExtraGrants), reconciled a run after the lines: up to 4 calls each (the login
   * by id, the two checks, the invitation).
   */
  extraGrants: 3,
} as const;
