/**
 * Days as the buyer reads them on the dashboard ("3 May 2026"): when a purchase was paid,
 * refunded or disputed, and when a release came out. In UTC, as Stripe and GitHub date them, so a
 * receipt and the sentence beside it name the same day. No DOM or Node: the worker imports it.
 */
const day = new Intl.DateTimeFormat('en-GB', {day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC'});

export function formatDay(at: number): string {
  return day.format(at);
}
