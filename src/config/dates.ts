/**
 * Days as the buyer reads them on the dashboard ("3 May 2026"): when a purchase was paid,
 * refunded or disputed, and when a release came out. In UTC, as Stripe and GitHub date them, so a
 * receipt and the sentence beside it name the same day. No DOM or Node: the worker imports it.
 */
/** A day in milliseconds: GitHub's 24-hour window of invitations, a UTC day of sales. */
export const DAY_MS = 24 * 3600_000;

const day = new Intl.DateTimeFormat('en-GB', {day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC'});

export function formatDay(at: number): string {
  return day.format(at);
}
