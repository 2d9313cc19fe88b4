import {AFFILIATE_PARAM} from '../../../src/config';
import type {AffiliateAnswer, AffiliateCommission} from '../../../src/config/api';
import type {Context} from '../context';
import {figuresByAffiliate, noTotals, SHOWN_COMMISSIONS, type ShownCommission} from './commissionState';
import {termsOf} from './programme';
import {liveStripeState} from './stripeAccount';

/** The commissions an affiliate's page lists, newest first: their totals count them all. */
const LISTED_COMMISSIONS = 500;

export interface AffiliateRow {
  id: string;
  user_id: string;
  email: string;
  code: string;
  clicks: number;
  created_at: number;
  stripe_account_id: string | null;
  stripe_ready_at: number | null;
}

/** The columns of an AffiliateRow. */
export const AFFILIATE_COLUMNS = 'id, user_id, email, code, clicks, created_at, stripe_account_id, stripe_ready_at';

/** The link an affiliate shares: the site's home page with their code. */
export function linkOf(siteOrigin: string, code: string): string {
  return `${siteOrigin}/?${AFFILIATE_PARAM}=${encodeURIComponent(code)}`;
}

/**
 * GET /affiliate: the programme's terms, and the caller's own link and figures once they joined.
 * Only their own: every read is by the caller's account, and no buyer is named (no e-mail, no
 * session id), only when they paid and how much. Their payouts through Stripe: where their own
 * account stands (asking Stripe while it is being set up), null when the seller pays otherwise.
 */
export async function affiliateAnswer(
  context: Context,
  siteOrigin: string,
  programme: {commissionPercent: number; referralDays: number},
  userId: string,
  now = Date.now(),
): Promise<AffiliateAnswer> {
  const {db} = context;
  const terms = termsOf(programme);
  const affiliate = await db
    .prepare(`SELECT ${AFFILIATE_COLUMNS} FROM affiliates WHERE user_id = ?1`)
    .bind(userId)
    .first<AffiliateRow>();
  if (!affiliate) return {terms, affiliate: null};
  const [figures, listed, stripe] = await Promise.all([
    figuresByAffiliate(db, now, affiliate.id),
    db
      .prepare(`${SHOWN_COMMISSIONS} WHERE c.affiliate_id = ?2 ORDER BY c.paid_at DESC LIMIT ${LISTED_COMMISSIONS}`)
      .bind(now, affiliate.id)
      .all<ShownCommission>(),
    liveStripeState(context, affiliate),
  ]);
  const own = figures.get(affiliate.id);
  return {
    terms,
    affiliate: {
      code: affiliate.code,
      link: linkOf(siteOrigin, affiliate.code),
      joinedAt: affiliate.created_at,
      clicks: affiliate.clicks,
      sales: own?.sales ?? 0,
      totals: own?.totals ?? noTotals(),
      commissions: listed.results.map((row): AffiliateCommission => ({
        paidAt: row.paid_at,
        amount: row.base_now,
        commission: row.amount,
        currency: row.currency,
        state: row.state,
        payableAt: row.payable_at,
      })),
      stripe,
    },
  };
}
