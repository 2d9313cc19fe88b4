/**
 * A visit through an affiliate's link: the code leaves the address, the visit the worker records is
 * kept in local storage (the last link followed wins), a code of the wrong form is never sent, a
 * refusal is ignored in silence, and the checkout sends the kept visit only while it counts.
 */
import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ButtonCheckout from '../../src/components/shared/ButtonCheckout';
import {API_PATHS, type AffiliateVisit} from '../../src/config/api';
import {appConfig} from '../../src/config';
import {storageKey} from '../../src/config/serviceName';
import {createApiClient} from '../../src/lib/api';
import {keptReferral, recordAffiliateVisit} from '../../src/lib/affiliateReferral';
import {renderWithSite} from '../support/render';
import {useJsonWorker} from '../support/jsonWorker';
import {startWorkerStub, type WorkerStub} from '../stubs/workerStub';

const worker = useJsonWorker();
const VISIT = `POST ${API_PATHS.affiliateVisit}`;
const NOW = Date.UTC(2026, 5, 1, 12);
const DAY_MS = 86_400_000;
/** Where the site keeps the visit: its own key in local storage. */
const REFERRAL_KEY = storageKey('referral');
const visit = (referral: string, expiresAt = NOW + 60 * DAY_MS): AffiliateVisit => ({referral, expiresAt});

/** Loads `url` as the address the page starts on, with the state a router left there. */
function arriveAt(url: string) {
  window.history.replaceState({key: 'k1'}, '', url);
}
const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;
/** What the page does as it opens, against the test's worker. */
const open = () => recordAffiliateVisit((code) => createApiClient({baseUrl: worker().url}).affiliateVisit({code}));

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error');
});
afterEach(() => {
  consoleError.mockRestore();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('a visit through an affiliate link', () => {
  it('takes `via` out of the address, keeping the rest, and keeps the visit the worker answered', async () => {
    worker().answer(VISIT, 200, visit('visit_first_000000001'));
    arriveAt('/docs/intro?utm_source=blog&via=Ada-Writes&lang=en#install');

    await open();

    expect(address()).toBe('/docs/intro?utm_source=blog&lang=en#install');
    expect(window.history.state).toEqual({key: 'k1'});
    // The code as the worker reads it: lower case.
    expect(worker().calls).toEqual([{route: VISIT, body: {code: 'ada-writes'}}]);
    expect(keptReferral(NOW)).toBe('visit_first_000000001');
    // Never a cookie.
    expect(document.cookie).toBe('');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('keeps the last link followed', async () => {
    worker().answer(VISIT, 200, visit('visit_first_000000001'));
    arriveAt('/?via=ada');
    await open();
    worker().answer(VISIT, 200, visit('visit_second_00000002'));
    arriveAt('/pricing?via=grace');
    await open();
    expect(address()).toBe('/pricing');
    expect(keptReferral(NOW)).toBe('visit_second_00000002');
  });

  it.each(['a', '-ada', 'ada_lovelace', 'ada%20l', ''])(
    'sends no request for a code of the wrong form (%p), but still takes it out of the address',
    async (code) => {
      arriveAt(`/?via=${code}`);
      await open();
      expect(address()).toBe('/');
      expect(worker().calls).toEqual([]);
      expect(keptReferral(NOW)).toBeUndefined();
    },
  );

  it.each([
    [404, {error: 'No affiliate has this code.', code: 'NOT_FOUND'}],
    [429, {error: 'Too many requests', code: 'RATE_LIMITED'}],
    [500, {error: 'Internal error'}],
    [200, {nothing: 'useful'}],
  ])('ignores a %s answer in silence, and keeps the visit kept before', async (status, body) => {
    worker().answer(VISIT, 200, visit('visit_first_000000001'));
    arriveAt('/?via=ada');
    await open();
    worker().answer(VISIT, status, body);
    arriveAt('/?via=nobody');
    await open();
    expect(address()).toBe('/');
    expect(keptReferral(NOW)).toBe('visit_first_000000001');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('ignores an unreachable worker in silence', async () => {
    arriveAt('/?via=ada');
    await recordAffiliateVisit((code) => createApiClient({baseUrl: 'http://127.0.0.1:9'}).affiliateVisit({code}));
    expect(address()).toBe('/');
    expect(keptReferral(NOW)).toBeUndefined();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('does nothing on a page opened without `via`', async () => {
    arriveAt('/?utm_source=blog');
    await open();
    expect(address()).toBe('/?utm_source=blog');
    expect(worker().calls).toEqual([]);
  });

  it('forgets a visit once it has expired, and anything it did not write', () => {
    window.localStorage.setItem(REFERRAL_KEY, JSON.stringify(visit('visit_first_000000001', NOW)));
    expect(keptReferral(NOW - 1)).toBe('visit_first_000000001');
    expect(keptReferral(NOW)).toBeUndefined();
    expect(window.localStorage.length).toBe(0);
    window.localStorage.setItem(REFERRAL_KEY, '{"referral":"<script>","expiresAt":1e15}');
    expect(keptReferral(NOW)).toBeUndefined();
    expect(window.localStorage.length).toBe(0);
  });
});

describe('the checkout', () => {
  let stripe: WorkerStub;
  beforeAll(async () => {
    stripe = await startWorkerStub();
  });
  afterAll(() => stripe.close());

  async function checkout(now: number) {
    jest.spyOn(Date, 'now').mockReturnValue(now);
    stripe.requests.length = 0;
    stripe.answer({kind: 'url', url: 'https://checkout.stripe.com/c/pay/cs_test_r1'});
    const redirect = jest.fn();
    const {unmount} = renderWithSite(<ButtonCheckout redirect={redirect} />, {env: {WORKER_URL: stripe.url}});
    await userEvent.click(screen.getByRole('button', {name: new RegExp(`Get ${appConfig.appName}`)}));
    await waitFor(() => expect(redirect).toHaveBeenCalled());
    unmount();
    jest.restoreAllMocks();
    return stripe.requests[0]!;
  }

  it('sends the kept visit while it counts, and none once it has expired', async () => {
    expect(await checkout(NOW)).not.toHaveProperty('referral');
    window.localStorage.setItem(REFERRAL_KEY, JSON.stringify(visit('visit_first_000000001', NOW + DAY_MS)));
    expect(await checkout(NOW)).toMatchObject({referral: 'visit_first_000000001'});
    expect(await checkout(NOW + DAY_MS)).not.toHaveProperty('referral');
    // Forgotten: it is not sent again.
    expect(window.localStorage.length).toBe(0);
  });
});
