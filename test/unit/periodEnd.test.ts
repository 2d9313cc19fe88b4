/**
 * The buyer's own refunds run to the end of a day (src/config/dates.ts `periodEnd`): the day of the
 * purchase does not count, and the period ends at the end of its last UTC day, as EU law counts a
 * period in days. The dashboard's offer and the worker's check read the same function.
 */
import {DAY_MS, formatDay, periodEnd} from '../../src/config/dates';

it.each([
  ['early in the day', Date.UTC(2026, 4, 3, 0, 0, 1)],
  ['late in the day', Date.UTC(2026, 4, 3, 23, 59, 59)],
])('a purchase %s on 3 May has 14 days to the end of 17 May', (_when, paidAt) => {
  const end = periodEnd(paidAt, 14);
  expect(formatDay(end)).toBe('17 May 2026');
  expect(end).toBe(Date.UTC(2026, 4, 18) - 1);
  expect(end + 1 - Date.UTC(2026, 4, 4)).toBe(14 * DAY_MS);
});
