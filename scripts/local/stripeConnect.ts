/**
 * Stripe Connect for the stand-in (./stripeApi.ts): the Express accounts a platform makes for the
 * people it pays, their hosted onboarding and dashboard links, and transfers from the platform's
 * balance to them, with the refusals Stripe answers (a balance too low, an account that cannot take
 * transfers yet, an account that does not exist). Typed with the `stripe` package's own types.
 * Tests set the balance, finish an account's onboarding, and make transfers fail with a 500.
 */
import {randomBytes} from 'node:crypto';
import type Stripe from 'stripe';
import {PLAN_CURRENCY} from '../../src/config';
import {escapeHtml, standInPage} from './standInPage';

/** Stripe's error body, as the stand-in answers it. */
interface ErrorBody {
  error: {type: string; code?: string; param?: string; message: string};
}

/** An answer of the API: its status and body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A page the stand-in draws in place of Stripe's hosted one, or a redirect. */
export type PageAnswer = {status: number; html: string} | {redirect: string};

export interface ConnectStandIn {
  /** The connected accounts by id, as the platform made them. */
  accounts: Map<string, Stripe.Account>;
  /** Every transfer Stripe made, oldest first. */
  transfers: Stripe.Transfer[];
  /** How many times an account was read (GET /v1/accounts/:id): each read spends the seller's rate limit. */
  accountReads: () => number;
  /** The platform's available balance by currency, in cents: a transfer takes from it. */
  balance: Map<string, number>;
  /** Sets the available balance in a currency (the plans' by default). */
  setBalance(amount: number, currency?: string): void;
  /** The account's owner finishes onboarding: details submitted, its `transfers` capability active. */
  finishOnboarding(accountId: string): void;
  /**
   * The next `count` transfer requests answer a 500. The first of them is made at Stripe all the
   * same (the answer is lost on the way back, an unknown outcome for the caller); the others make
   * nothing. Stripe saves a 500 under the request's idempotency key like any answer: a retry with
   * the same key gets the same 500.
   */
  failTransfers(count: number): void;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

function refused(status: number, error: ErrorBody['error']): ApiAnswer {
  return {status, body: {error} satisfies ErrorBody};
}

const invalid = (error: Omit<ErrorBody['error'], 'type'>) => refused(400, {type: 'invalid_request_error', ...error});
const noSuch = (object: string, id: string, param?: string) =>
  refused(param ? 400 : 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    ...(param && {param}),
    message: `No such ${object}: '${id}'`,
  });

/** Stripe's words for a balance too low for the transfer. */
const BALANCE_INSUFFICIENT =
  'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance';
/** Stripe's words for a destination that cannot take transfers yet. */
const NO_TRANSFERS_CAPABILITY =
  'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments';

function newConnectedAccount(body: Record<string, unknown>): Stripe.Account {
  return {
    id: newId('acct_'),
    object: 'account',
    type: 'express',
    email: (body.email as string | undefined) ?? null,
    country: (body.country as string | undefined) ?? 'US',
    created: nowSeconds(),
    capabilities: {transfers: 'inactive'},
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    metadata: (body.metadata as Stripe.Metadata | undefined) ?? {},
  } as Stripe.Account;
}

/** The Connect endpoints and pages of a stand-in whose public address is `publicUrl()`. */
export function connectStandIn(publicUrl: () => string): ConnectStandIn & {
  /** The API's answer to a Connect request, or null when it is not one. */
  route(method: string, path: string, body: Record<string, unknown>, query: Record<string, unknown>): ApiAnswer | null;
  /** The hosted onboarding and dashboard pages, or null for another path. */
  page(method: string, path: string, form: URLSearchParams): PageAnswer | null;
} {
  const accounts = new Map<string, Stripe.Account>();
  const transfers: Stripe.Transfer[] = [];
  const balance = new Map<string, number>([[PLAN_CURRENCY, 1_000_000]]);
  /** The onboarding links by token: the account, where to go back, until when. */
  const links = new Map<string, {account: string; returnUrl: string; refreshUrl: string; expiresAt: number}>();
  let failing = 0;
  let makeWhileFailing = false;

  function finishOnboarding(accountId: string) {
    const account = accounts.get(accountId);
    if (!account) throw new Error(`No connected account ${accountId}`);
    Object.assign(account, {
      details_submitted: true,
      payouts_enabled: true,
      capabilities: {...account.capabilities, transfers: 'active'},
    });
  }

  /** A transfer as Stripe makes it, or its refusal. */
  function createTransfer(body: Record<string, unknown>): ApiAnswer {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 1)
      return invalid({code: 'parameter_invalid_integer', param: 'amount', message: 'Invalid positive integer'});
    const currency = String(body.currency ?? '').toLowerCase();
    const destination = String(body.destination ?? '');
    const account = accounts.get(destination);
    if (!account) return noSuch('destination', destination, 'destination');
    if (account.capabilities?.transfers !== 'active')
      return invalid({code: 'insufficient_capabilities_for_transfer', message: NO_TRANSFERS_CAPABILITY});
    const available = balance.get(currency) ?? 0;
    if (amount > available) return invalid({code: 'balance_insufficient', message: BALANCE_INSUFFICIENT});
    balance.set(currency, available - amount);
    const transfer = {
      id: newId('tr_'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: newId('txn_'),
      created: nowSeconds(),
      currency,
      description: null,
      destination,
      destination_payment: newId('py_'),
      livemode: false,
      metadata: (body.metadata as Stripe.Metadata | undefined) ?? {},
      reversals: {object: 'list', data: [], has_more: false, url: '/v1/transfers/reversals'},
      reversed: false,
      source_transaction: null,
      source_type: 'card',
      transfer_group: (body.transfer_group as string | undefined) ?? null,
    } as Stripe.Transfer;
    transfers.push(transfer);
    return {status: 200, body: transfer};
  }

  let reads = 0;
  function route(
    method: string,
    path: string,
    body: Record<string, unknown>,
    query: Record<string, unknown>,
  ): ApiAnswer | null {
    if (method === 'POST' && path === '/v1/accounts') {
      if (body.type !== 'express')
        return invalid({param: 'type', message: 'The stand-in makes Express accounts only.'});
      const account = newConnectedAccount(body);
      accounts.set(account.id, account);
      return {status: 200, body: account};
    }
    let match = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      reads += 1;
      const account = accounts.get(decodeURIComponent(match[1]!));
      return account ? {status: 200, body: account} : noSuch('account', match[1]!);
    }
    match = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(path);
    if (method === 'POST' && match) {
      const account = accounts.get(decodeURIComponent(match[1]!));
      if (!account) return noSuch('account', match[1]!);
      if (!account.details_submitted)
        return invalid({message: 'Cannot create a login link for an account that has not completed onboarding.'});
      const login: Stripe.LoginLink = {
        object: 'login_link',
        created: nowSeconds(),
        url: `${publicUrl()}/connect/dashboard/${account.id}`,
      };
      return {status: 200, body: login};
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const id = String(body.account ?? '');
      if (!accounts.has(id)) return noSuch('account', id, 'account');
      if (body.type !== 'account_onboarding' && body.type !== 'account_update')
        return invalid({param: 'type', message: 'Invalid type: must be one of account_onboarding or account_update'});
      for (const param of ['refresh_url', 'return_url'])
        if (typeof body[param] !== 'string')
          return invalid({code: 'parameter_missing', param, message: `Missing required param: ${param}.`});
      const token = randomBytes(18).toString('base64url');
      const expiresAt = nowSeconds() + 300;
      links.set(token, {
        account: id,
        returnUrl: body.return_url as string,
        refreshUrl: body.refresh_url as string,
        expiresAt,
      });
      const link: Stripe.AccountLink = {
        object: 'account_link',
        created: nowSeconds(),
        expires_at: expiresAt,
        url: `${publicUrl()}/connect/onboarding/${token}`,
      };
      return {status: 200, body: link};
    }
    if (method === 'POST' && path === '/v1/transfers') {
      if (failing > 0) {
        failing -= 1;
        if (makeWhileFailing) createTransfer(body);
        makeWhileFailing = false;
        return refused(500, {type: 'api_error', message: 'An unknown error occurred'});
      }
      return createTransfer(body);
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const group = query.transfer_group as string | undefined;
      const listed = transfers.filter((transfer) => group === undefined || transfer.transfer_group === group);
      const list: Stripe.ApiList<Stripe.Transfer> = {
        object: 'list',
        data: listed.reverse().slice(0, Number(query.limit ?? 10)),
        has_more: false,
        url: '/v1/transfers',
      };
      return {status: 200, body: list};
    }
    return null;
  }

  function page(method: string, path: string, form: URLSearchParams): PageAnswer | null {
    const note = '<p class="local"><strong>Local mode:</strong> this page stands in for';
    let match = /^\/connect\/onboarding\/([^/]+)$/.exec(path);
    if (match) {
      const link = links.get(match[1]!);
      if (!link || link.expiresAt < nowSeconds())
        return {
          status: 404,
          html: standInPage(
            'Link expired',
            `${note} Stripe's onboarding.</p><h1>Link expired</h1><p>This link was used or has expired: ask for a new one.</p>`,
          ),
        };
      if (method === 'POST') {
        links.delete(match[1]!);
        if (form.get('finish') === 'yes') finishOnboarding(link.account);
        return {redirect: form.get('finish') === 'yes' ? link.returnUrl : link.refreshUrl};
      }
      return {
        status: 200,
        html: standInPage(
          'Set up payouts',
          `${note} Stripe's hosted onboarding of an Express account. No details are asked.</p>
<h1>Set up payouts</h1><p>Account ${escapeHtml(link.account)}.</p>
<form method="post"><button name="finish" value="yes">Finish</button></form>`,
        ),
      };
    }
    match = /^\/connect\/dashboard\/([^/]+)$/.exec(path);
    if (match && method === 'GET') {
      const account = accounts.get(match[1]!);
      const paid = transfers.filter((transfer) => transfer.destination === account?.id);
      return {
        status: account ? 200 : 404,
        html: standInPage(
          'Stripe Express',
          `${note} a Stripe Express dashboard.</p><h1>Stripe Express</h1><p>${
            account
              ? `${escapeHtml(account.id)}: ${paid.length} transfer${paid.length === 1 ? '' : 's'} received.`
              : 'There is no such account.'
          }</p>`,
        ),
      };
    }
    return null;
  }

  return {
    accounts,
    transfers,
    accountReads: () => reads,
    balance,
    setBalance(amount, currency = PLAN_CURRENCY) {
      balance.set(currency, amount);
    },
    finishOnboarding,
    failTransfers(count) {
      failing = count;
      makeWhileFailing = count > 0;
    },
    route,
    page,
  };
}
