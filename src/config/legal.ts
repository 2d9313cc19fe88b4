/**
 * The day each legal page's text last changed (YYYY-MM-DD), which the page states as "Last
 * updated". A change to the terms or the privacy policy changes its date here too:
 * test/unit/legalDates.test.ts fails when the text changes and its date does not.
 */
export const legal = {
  terms: {lastUpdated: '2026-12-05'},
  privacy: {lastUpdated: '2026-12-07'},
} as const;
