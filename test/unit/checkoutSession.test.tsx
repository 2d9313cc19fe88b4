import {
  checkoutSessionScript,
  clearCheckoutSession,
  readCheckoutSession,
  takeCheckoutSessionFromUrl,
} from '../../src/lib/checkoutSession';

/** Loads `url` as the address the page starts on, with the state a router left there. */
function arriveAt(url: string) {
  window.history.replaceState({key: 'k1', state: undefined}, '', url);
}

const address = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

const CLAIM = 'q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1-';

describe('the checkout session id and its claim in the address bar', () => {
  it('leave the address, keeping the other parameters, the hash and the history state, and wait for the dashboard', () => {
    arriveAt(`/success?utm_source=mail&claim=${CLAIM}&sessionId=cs_test_a1B2c3&ref=spring%20sale#receipt`);

    takeCheckoutSessionFromUrl();

    expect(address()).toBe('/success?utm_source=mail&ref=spring%20sale#receipt');
    expect(window.history.state).toEqual({key: 'k1', state: undefined});
    expect(readCheckoutSession()).toEqual({sessionId: 'cs_test_a1B2c3', claim: CLAIM});
  });

  it('leaves no empty query behind when it was the only parameter', () => {
    arriveAt('/dashboard?sessionId=cs_live_Z9');
    takeCheckoutSessionFromUrl();
    expect(address()).toBe('/dashboard');
    expect(readCheckoutSession()).toEqual({sessionId: 'cs_live_Z9', claim: ''});
  });

  it.each([
    ['markup', '<img src=x>'],
    ['too short', CLAIM.slice(1)],
    ['too long', `${CLAIM}a`],
  ])('takes a claim out but does not keep it when it is %s', (_kind, value) => {
    arriveAt(`/success?sessionId=cs_test_c1&claim=${encodeURIComponent(value)}`);
    takeCheckoutSessionFromUrl();
    expect(address()).toBe('/success');
    expect(readCheckoutSession()).toEqual({sessionId: 'cs_test_c1', claim: ''});
  });

  it.each([
    ['another kind of Stripe id', 'pi_3Nx2'],
    ['markup', 'cs_test_<img src=x>'],
    ['an empty value', ''],
    ['an overlong id', `cs_test_${'a'.repeat(201)}`],
  ])('is taken out but not kept when it holds %s', (_kind, value) => {
    arriveAt(`/success?sessionId=${encodeURIComponent(value)}&plan=advanced`);
    takeCheckoutSessionFromUrl();
    expect(address()).toBe('/success?plan=advanced');
    expect(readCheckoutSession()).toBeNull();
  });

  it('leaves an address without one as it was, and a kept id until it is cleared', () => {
    arriveAt('/dashboard?sessionId=cs_test_kept');
    takeCheckoutSessionFromUrl();
    arriveAt('/docs?session=1#intro');

    takeCheckoutSessionFromUrl();

    expect(address()).toBe('/docs?session=1#intro');
    expect(readCheckoutSession()).toMatchObject({sessionId: 'cs_test_kept'});
    clearCheckoutSession();
    expect(readCheckoutSession()).toBeNull();
  });
});

describe('the inline <head> script the built pages carry', () => {
  it('does the same on its own, with nothing from the module in scope', () => {
    arriveAt(`/success?utm_source=mail&claim=${CLAIM}&sessionId=cs_test_inline1#receipt`);
    // Run as the browser runs an inline script: global scope, no imports.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the inline script, run as the page runs it
    new Function(checkoutSessionScript())();
    expect(address()).toBe('/success?utm_source=mail#receipt');
    expect(readCheckoutSession()).toEqual({sessionId: 'cs_test_inline1', claim: CLAIM});
  });
});
