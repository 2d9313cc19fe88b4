/**
 * A visit through an affiliate's link (`/?via=code`), as this browser keeps it: the code leaves the
 * address bar, the worker records the visit and answers its id, and the id waits in local storage
 * (never a cookie: nothing goes to a server unasked) for the checkout, which sends it while it
 * counts. The last link followed wins: a new visit's id replaces the one kept.
 *
 * The id names a visit the worker recorded, nothing more: the worker decides at checkout whether it
 * still counts and for whom, so a visitor who edits what is kept gains nothing.
 */
import {AFFILIATE_CODE_PATTERN, AFFILIATE_PARAM} from '../config/affiliates';
import type {AffiliateVisit} from '../config/api';
import {storageKey} from '../config/serviceName';
import {readItem, removeItem, writeItem} from './browserStorage';

const REFERRAL_KEY = storageKey('referral');
/** The form of a visit's id, as the worker's checkout schema takes it (`referralId`). */
const REFERRAL_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Takes `via` out of the address bar (keeping the rest of the query, the hash and the history
 * state), so a link copied from here does not carry the affiliate on, and answers its code when it
 * has a code's form (the worker's schema trims it and reads it in lower case), else null.
 */
export function takeAffiliateCode(): string | null {
  const {pathname, search, hash} = window.location;
  const query = new URLSearchParams(search);
  if (!query.has(AFFILIATE_PARAM)) return null;
  const code = (query.get(AFFILIATE_PARAM) ?? '').trim().toLowerCase();
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !new URLSearchParams(part).has(AFFILIATE_PARAM))
    .join('&');
  window.history.replaceState(window.history.state, '', pathname + (kept ? `?${kept}` : '') + hash);
  return AFFILIATE_CODE_PATTERN.test(code) ? code : null;
}

/** Keeps the visit the worker answered, in place of any kept before: the last link followed wins. */
export function keepReferral(visit: AffiliateVisit): void {
  if (!REFERRAL_ID.test(visit.referral) || !Number.isFinite(visit.expiresAt)) return;
  writeItem('localStorage', REFERRAL_KEY, JSON.stringify({referral: visit.referral, expiresAt: visit.expiresAt}));
}

/**
 * The visit's id for a checkout, while the worker said it counts; one that has expired (or that
 * is not what this module wrote) is forgotten, and the answer is undefined.
 */
export function keptReferral(now: number = Date.now()): string | undefined {
  const text = readItem('localStorage', REFERRAL_KEY);
  if (text === null) return undefined;
  const kept = parsed(text);
  if (kept && kept.expiresAt > now) return kept.referral;
  removeItem('localStorage', REFERRAL_KEY);
  return undefined;
}

function parsed(text: string): AffiliateVisit | null {
  try {
    const value = JSON.parse(text) as Partial<AffiliateVisit> | null;
    return typeof value?.referral === 'string' &&
      REFERRAL_ID.test(value.referral) &&
      typeof value.expiresAt === 'number' &&
      Number.isFinite(value.expiresAt)
      ? {referral: value.referral, expiresAt: value.expiresAt}
      : null;
  } catch {
    return null;
  }
}

/**
 * What a page does as it opens: the code out of the address, then the visit sent and kept. `send`
 * is the worker's POST /affiliateVisit. An unknown code, a refusal or an unreachable worker keeps
 * what was kept before and says nothing: the visitor came to read the page, not to be told.
 */
export async function recordAffiliateVisit(send: (code: string) => Promise<AffiliateVisit>): Promise<void> {
  const code = takeAffiliateCode();
  if (code === null) return;
  try {
    keepReferral(await send(code));
  } catch {
    // Ignored on purpose (see above).
  }
}
