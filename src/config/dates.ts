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

/**
 * The last moment of a period of `days` that starts on the day of `at` (Unix ms): the day itself
 * does not count, and the period runs to the end of its last day, in UTC (as EU law counts a
 * period in days, Regulation 1182/71). A period "of 14 days" from a purchase on 3 May ends at the
 * end of 17 May. The buyer's own refunds end here, on the dashboard and in the worker alike.
 */
export function periodEnd(at: number, days: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS + (days + 1) * DAY_MS - 1;
}
