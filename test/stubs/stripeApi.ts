/**
 * A stand-in for Stripe's API (Stripe has no offline server): the few endpoints the worker calls,
 * answering objects typed with the `stripe` package's own types so they cannot drift from the
 * real shapes. Tests complete, fail and expire sessions the way a buyer and Stripe would.
 */
import http from 'node:http';
import qs from 'qs';
import type Stripe from 'stripe';
import {listen} from '../support/staticServer';

export interface StripeStandIn {
  url: string;
  sessions: Map<string, Stripe.Checkout.Session>;
  /** Bodies of the checkout sessions the worker created, as Stripe received them. */
  created: Record<string, unknown>[];
  portals: Record<string, unknown>[];
  /** The buyer pays (or starts an async payment that has not cleared yet). */
  complete(id: string, options: {email: string; paid: boolean}): Stripe.Checkout.Session;
  /** Stripe's answer to the later async payment. */
  settle(id: string, paid: boolean): Stripe.Checkout.Session;
  /** A session that already exists, e.g. one made long ago. */
  add(session: Partial<Stripe.Checkout.Session>): Stripe.Checkout.Session;
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function lineItems(priceId: string | null): Stripe.ApiList<Stripe.LineItem> {
  const data = priceId
    ? [{id: nextId('li_'), object: 'item', price: {id: priceId, object: 'price'}, quantity: 1} as unknown as Stripe.LineItem]
    : [];
  return {object: 'list', data, has_more: false, url: '/v1/checkout/sessions/line_items'};
}

export function newSession(fields: Partial<Stripe.Checkout.Session> = {}): Stripe.Checkout.Session {
  const id = fields.id ?? nextId('cs_test_');
  return {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    created: Math.floor(Date.now() / 1000),
    customer: null,
    customer_email: null,
    customer_details: null,
    client_reference_id: null,
    payment_intent: null,
    metadata: {},
    url: `https://checkout.stripe.com/c/pay/${id}`,
    livemode: false,
    ...fields,
  } as Stripe.Checkout.Session;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const sessions = new Map<string, Stripe.Checkout.Session>();
  const prices = new Map<string, string>();
  const created: Record<string, unknown>[] = [];
  const portals: Record<string, unknown>[] = [];

  function send(response: http.ServerResponse, status: number, body: unknown) {
    response.writeHead(status, {'content-type': 'application/json', 'request-id': nextId('req_')});
    response.end(JSON.stringify(body));
  }
  function notFound(response: http.ServerResponse, id: string) {
    send(response, 404, {
      error: {type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${id}'`},
    });
  }

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.local');
      const body = qs.parse(raw) as Record<string, unknown>;
      const query = qs.parse(url.search.slice(1)) as Record<string, unknown>;
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        created.push(body);
        const items = body.line_items as {price: string}[] | undefined;
        const session = newSession({
          customer_email: (body.customer_email as string) ?? null,
          client_reference_id: (body.client_reference_id as string) ?? null,
          metadata: (body.metadata as Record<string, string>) ?? {},
          success_url: body.success_url as string,
          cancel_url: body.cancel_url as string,
        });
        sessions.set(session.id, session);
        prices.set(session.id, items?.[0]?.price ?? '');
        return send(response, 200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && match) {
        const session = sessions.get(match[1]!);
        if (!session) return notFound(response, match[1]!);
        const expand = (query.expand as string[] | undefined) ?? [];
        return send(response, 200, expand.includes('line_items') ? {...session, line_items: lineItems(prices.get(session.id) ?? null)} : session);
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        portals.push(body);
        const portal: Partial<Stripe.BillingPortal.Session> = {
          id: nextId('bps_'),
          object: 'billing_portal.session',
          customer: body.customer as string,
          return_url: body.return_url as string,
          url: `https://billing.stripe.com/p/session/${nextId('test_')}`,
        };
        return send(response, 200, portal);
      }
      send(response, 404, {error: {type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname})`}});
    });
  });
  const running = await listen(server);

  function update(id: string, fields: Partial<Stripe.Checkout.Session>) {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    const next = {...session, ...fields} as Stripe.Checkout.Session;
    sessions.set(id, next);
    return next;
  }

  return {
    url: running.url,
    sessions,
    created,
    portals,
    complete(id, {email, paid}) {
      return update(id, {
        status: 'complete',
        payment_status: paid ? 'paid' : 'unpaid',
        customer: nextId('cus_'),
        payment_intent: nextId('pi_'),
        customer_details: {email} as Stripe.Checkout.Session.CustomerDetails,
        url: null,
      });
    },
    settle(id, paid) {
      return update(id, {payment_status: paid ? 'paid' : 'unpaid'});
    },
    add(fields) {
      const session = newSession(fields);
      sessions.set(session.id, session);
      prices.set(session.id, (fields.metadata?.priceId as string) ?? '');
      return session;
    },
    close: running.close,
  };
}
