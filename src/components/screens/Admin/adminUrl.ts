/**
 * Where the console is: the page is one static route, so the panel, the search, the page of a
 * list and the purchase open are in the query (`/admin?view=purchases&q=ada&page=2`,
 * `/admin?purchase=cs_…`), and the back button walks through them.
 */
import {useLocation} from '@docusaurus/router';
import {affiliateProgramme, ROUTES} from '../../../config';
import {
  DEFAULT_SALES_PERIOD,
  PURCHASE_FLAGS,
  PURCHASE_SORTS,
  PURCHASE_STATES,
  SALES_PERIODS,
  type PurchaseFlag,
  type PurchaseSort,
  type PurchaseState,
  type SalesPeriod,
} from '../../../config/api';

export const VIEWS = {
  sales: 'Sales',
  purchases: 'Purchases',
  failures: 'Failures',
  releases: 'Releases',
  repository: 'Repository',
  selfRefunds: 'Buyer refunds',
  codes: 'Codes',
  affiliates: 'Affiliates',
  leads: 'Leads',
  log: 'Admin log',
} as const;
export type View = keyof typeof VIEWS;

/** The views the console's navigation lists: Affiliates only while the config runs the programme. */
export function listedViews(): View[] {
  return (Object.keys(VIEWS) as View[]).filter((view) => view !== 'affiliates' || affiliateProgramme() !== undefined);
}

export interface AdminQuery {
  view: View;
  /** The purchase open, by its Checkout Session id. */
  purchase?: string;
  q?: string;
  page?: number;
  /** The Sales panel's period; absent is the worker's default (30 days). */
  period?: SalesPeriod;
  /** The purchases list's filters and order; the worker checks the plan's name. */
  state?: PurchaseState;
  plan?: string;
  sort?: PurchaseSort;
  /** Only the purchases flagged for this, not yet accepted. */
  flagged?: PurchaseFlag;
}

/** The value if it is one of `values`, else undefined (a hand-edited address shows everything). */
function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined;
}

// Own keys only: `in` would take `?view=constructor` (inherited from Object) for a panel.
function isView(value: string | null): value is View {
  return value !== null && Object.hasOwn(VIEWS, value);
}

export function readAdminQuery(search: string): AdminQuery {
  const params = new URLSearchParams(search);
  const view = params.get('view');
  const page = Number(params.get('page'));
  const q = params.get('q') || undefined;
  return {
    // A search alone (the new-sale e-mail's link, `/admin?q=ada@example.com`) is a purchase search.
    view: isView(view) ? view : q ? 'purchases' : 'sales',
    purchase: params.get('purchase') || undefined,
    q,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    period: oneOf(SALES_PERIODS, params.get('period')),
    state: oneOf(PURCHASE_STATES, params.get('state')),
    plan: params.get('plan') || undefined,
    sort: oneOf(PURCHASE_SORTS, params.get('sort')),
    flagged: oneOf(PURCHASE_FLAGS, params.get('flagged')),
  };
}

export function adminHref({view, purchase, q, page, period, state, plan, sort, flagged}: Partial<AdminQuery>): string {
  const params = new URLSearchParams();
  if (purchase) params.set('purchase', purchase);
  else if (view && view !== 'sales') params.set('view', view);
  if (q) params.set('q', q);
  if (state) params.set('state', state);
  if (plan) params.set('plan', plan);
  if (flagged) params.set('flagged', flagged);
  if (sort && sort !== 'newest') params.set('sort', sort);
  if (page && page > 1) params.set('page', String(page));
  if (period && period !== DEFAULT_SALES_PERIOD) params.set('period', period);
  const query = params.toString();
  return query ? `${ROUTES.admin}?${query}` : ROUTES.admin;
}

export function useAdminQuery(): AdminQuery {
  return readAdminQuery(useLocation().search);
}
