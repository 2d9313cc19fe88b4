import {RetryableError} from './jobs';

/**
 * Cloudflare counts each fetch a Worker makes to the internet (GitHub, Mailgun) against a limit
 * per invocation: 50 on the Free plan, 10,000 by default on the Paid plan (D1 queries count
 * apart, against 1,000). Past it every fetch throws, and work stops half done: an invitation sent
 * but not recorded, an e-mail queued but not sent. So the worker counts for itself. Each fetch
 * wrapper spends one, and each batch of work asks `has(n)` before an item that may take up to
 * n; what does not fit waits for the next cron run, which carries on where this one stopped.
 */
export class SubrequestBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get left(): number {
    return this.limit - this.used;
  }

  /** Whether an item that makes up to `count` subrequests still fits in this invocation. */
  has(count: number): boolean {
    return this.left >= count;
  }

  /** Takes one for a fetch about to be made; throws rather than let Cloudflare refuse it. */
  spend(): void {
    if (this.used >= this.limit) throw new OutOfSubrequests(this.limit);
    this.used += 1;
  }
}

/**
 * What this invocation may spend is spent: not the work's fault, so the job goes back to the outbox
 * as it was (its attempt not counted) and the next cron run carries on.
 */
export class NextRun extends RetryableError {
  constructor(message: string) {
    super(message, 0);
  }
}

/** This invocation's subrequests are spent. */
export class OutOfSubrequests extends NextRun {
  constructor(limit: number) {
    super(`This run's ${limit} subrequests are spent; the next cron run carries on`);
  }
}

/**
 * The most subrequests one item of work can make, so that a batch stops before an item, never in
 * its middle. An invitation: find the account, check it holds no other seat (collaborator and open
 * invitations), invite, withdraw a stale one, and e-mail the buyer. A job may be an invitation. A
 * fix of the repository: withdraw an invitation or two, look the login up, and remove it.
 */
export const SUBREQUESTS_PER = {invitation: 6, job: 6, fix: 4} as const;
