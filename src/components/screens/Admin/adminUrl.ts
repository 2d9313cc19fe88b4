/**
 * Where the console is: the page is one static route, so the panel, the search, the page of a
 * list and the purchase open are in the query (`/admin?view=purchases&q=ada&page=2`,
 * `/admin?purchase=cs_…`), and the back button walks through them.
 */
import {useLocation} from '@docusaurus/router';
import {ROUTES} from '../../../config';
import {DEFAULT_SALES_PERIOD, SALES_PERIODS, type SalesPeriod} from '../../../config/api';

export const VIEWS = {
  sales: 'Sales',
  purchases: 'Purchases',
  failures: 'Failures',
  repository: 'Repository',
  leads: 'Leads',
  log: 'Admin log',
} as const;
export type View = keyof typeof VIEWS;

export interface AdminQuery {
  view: View;
  /** The purchase open, by its Checkout Session id. */
  purchase?: string;
  q?: string;
  page?: number;
  /** The Sales panel's period; absent is the worker's default (30 days). */
  period?: SalesPeriod;
}

function isPeriod(value: string | null): value is SalesPeriod {
  return (SALES_PERIODS as readonly (string | null)[]).includes(value);
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
    period: isPeriod(params.get('period')) ? (params.get('period') as SalesPeriod) : undefined,
  };
}

export function adminHref({view, purchase, q, page, period}: Partial<AdminQuery>): string {
  const params = new URLSearchParams();
  if (purchase) params.set('purchase', purchase);
  else if (view && view !== 'sales') params.set('view', view);
  if (q) params.set('q', q);
  if (page && page > 1) params.set('page', String(page));
  if (period && period !== DEFAULT_SALES_PERIOD) params.set('period', period);
  const query = params.toString();
  return query ? `${ROUTES.admin}?${query}` : ROUTES.admin;
}

export function useAdminQuery(): AdminQuery {
  return readAdminQuery(useLocation().search);
}
