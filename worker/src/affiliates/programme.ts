import {AFFILIATE_WORDS, affiliateProgramme, appConfig, commissionHoldDays} from '../../../src/config';
import {DAY_MS} from '../../../src/config/dates';
import {HttpError} from '../errors';

/** The programme the config runs; without one, the affiliate endpoints answer 404 (AFFILIATE_WORDS.noProgramme). */
export function programmeOr404() {
  const programme = affiliateProgramme(appConfig);
  if (!programme) throw new HttpError(404, AFFILIATE_WORDS.noProgramme, 'NOT_FOUND');
  return programme;
}

/** How long a visit counts for a checkout, in ms. */
export function referralMs(programme: {referralDays: number}): number {
  return programme.referralDays * DAY_MS;
}

/** The terms as the worker applies them: the affiliate's page shows these, not its own copy. */
export function termsOf(programme: {commissionPercent: number; referralDays: number}) {
  return {
    commissionPercent: programme.commissionPercent,
    referralDays: programme.referralDays,
    holdDays: commissionHoldDays(appConfig),
  };
}

/**
 * The keys of a Checkout Session's metadata that name the referral the worker found (payments/routes.ts):
 * fulfilment credits the affiliate named there, once the worker has checked it knows them.
 */
export const REFERRAL_METADATA = {affiliate: 'affiliate', visit: 'affiliate_visit'} as const;
