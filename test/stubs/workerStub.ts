/**
 * A stand-in for the worker's checkout endpoints (the checkout, the success page's status, the
 * prices), for the built site's browser tests: a real HTTP
 * server on the port the site was built against, which records what the site sent and answers as
 * the test tells it to, including holding the answer (the real worker cannot be paused mid-call).
 * Typed with the contract (`src/config/api.ts`), never with the client's own types, so a drift of
 * either side fails the typecheck.
 */
import http from 'node:http';
import {appConfig, planAmount} from '../../src/config';
import {
  API_PATHS,
  type CheckoutStatusRequest,
  type CheckoutStatusResponse,
  type CreateCheckoutSessionRequest,
  type ErrorBody,
  type PricesResponse,
  type UrlResponse,
} from '../../src/config/api';
import {listen} from '../../scripts/support/listen';

export type CheckoutAnswer =
  {kind: 'url'; url: string} | {kind: 'error'; status: number; body: ErrorBody} | {kind: 'hold'};

export interface WorkerStub {
  url: string;
  requests: CreateCheckoutSessionRequest[];
  answer: (next: CheckoutAnswer) => void;
  /** What GET prices answers from now on: the list prices, for a visitor in no tier, unless told. */
  prices: (next: PricesResponse) => void;
  /** How many times GET prices was asked. */
  readonly pricesAsked: number;
  /** What POST checkoutStatus answers from now on (until told, a 503 the page shows as no answer). */
  checkoutStatus: (next: CheckoutStatusResponse | {error: ErrorBody; status: number}) => void;
  /** The bodies the success page sent to POST checkoutStatus. */
  statusRequests: CheckoutStatusRequest[];
  /** Answers the held request with a URL. */
  release: (url: string) => void;
  /** Resolves once a request is being held (the site may load its auth SDK before sending). */
  waitForHeld: () => Promise<void>;
  close: () => Promise<void>;
}

/** GET prices for a visitor whose country has no discount: every plan at its list price. */
export function listPrices(): PricesResponse {
  return {
    country: 'US',
    countryName: 'United States',
    percentOff: 0,
    currency: 'usd',
    plans: appConfig.plans.map((plan) => ({id: plan.id, amount: planAmount(plan), listAmount: planAmount(plan)})),
  };
}

export async function startWorkerStub(port = 0): Promise<WorkerStub> {
  const requests: CreateCheckoutSessionRequest[] = [];
  let answer: CheckoutAnswer = {kind: 'error', status: 503, body: {error: 'No answer set', code: 'NOT_CONFIGURED'}};
  const held: http.ServerResponse[] = [];
  let prices = listPrices();
  let pricesAsked = 0;
  let statusAnswer: CheckoutStatusResponse | {error: ErrorBody; status: number} = {
    status: 503,
    error: {error: 'No answer set', code: 'NOT_CONFIGURED'},
  };
  const statusRequests: CheckoutStatusRequest[] = [];

  function send(response: http.ServerResponse, status: number, body: unknown) {
    response.writeHead(status, {'Content-Type': 'application/json'});
    response.end(JSON.stringify(body));
  }

  const server = http.createServer((request, response) => {
    // The site runs on another origin, as it will against the real worker.
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization');
    response.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && request.url === API_PATHS.prices) {
      pricesAsked++;
      send(response, 200, prices);
      return;
    }
    const known = [API_PATHS.createCheckoutSession, API_PATHS.checkoutStatus] as string[];
    if (request.method !== 'POST' || !known.includes(request.url ?? '')) {
      send(response, 404, {error: 'Not found'} satisfies ErrorBody);
      return;
    }
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      if (request.url === API_PATHS.checkoutStatus) {
        statusRequests.push(JSON.parse(raw) as CheckoutStatusRequest);
        if ('error' in statusAnswer) send(response, statusAnswer.status, statusAnswer.error);
        else send(response, 200, statusAnswer);
        return;
      }
      requests.push(JSON.parse(raw) as CreateCheckoutSessionRequest);
      if (answer.kind === 'url') send(response, 200, {url: answer.url} satisfies UrlResponse);
      else if (answer.kind === 'error') send(response, answer.status, answer.body);
      else held.push(response);
    });
  });

  const running = await listen(server, port);
  return {
    url: running.url,
    requests,
    answer: (next) => {
      answer = next;
    },
    prices: (next) => {
      prices = next;
    },
    get pricesAsked() {
      return pricesAsked;
    },
    checkoutStatus: (next) => {
      statusAnswer = next;
    },
    statusRequests,
    waitForHeld: async () => {
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    release: (url) => {
      for (const response of held.splice(0)) send(response, 200, {url});
    },
    close: running.close,
  };
}
