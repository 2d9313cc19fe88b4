import {useEffect, useMemo, useState} from 'react';
import type {CheckoutStatus} from '../../../config/api';
import {createApiClient, refusedForGood} from '../../../lib/api';
import {clearCheckoutSession, readCheckoutSession} from '../../../lib/checkoutSession';
import {messageOf} from '../../../lib/errorMessage';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';

/**
 * What the success page knows about the checkout this tab came back from: still asking, the
 * worker's answer, nothing to ask about (`none`: no checkout, one without its claim, or one the
 * worker refused), or no answer (`unchecked`, with why).
 */
export type SuccessState =
  {kind: 'checking'} | {kind: 'none'} | {kind: 'unchecked'; message: string} | {kind: CheckoutStatus};

/** Answers for which the id can never sign anyone in: the dashboard need not try it. */
const SPENT: SuccessState['kind'][] = ['none', 'unpaid', 'failed', 'revoked'];

/**
 * Asks the worker whether the checkout whose id and claim `lib/checkoutSession` took out of the
 * address is paid. The prerendered page and the first render say `checking`: only the browser
 * holds the id. `retry` asks again after no answer.
 */
export function useCheckoutStatus(): {state: SuccessState; retry: () => void} {
  const {workerUrl} = useSiteSettings();
  // No sign-in: the answer is the checkout's, whoever asks with its claim.
  const api = useMemo(() => createApiClient({baseUrl: workerUrl}), [workerUrl]);
  const [state, setState] = useState<SuccessState>({kind: 'checking'});
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    const settle = (next: SuccessState) => {
      if (!current) return;
      // The dashboard's exchange would be refused for these too.
      if (SPENT.includes(next.kind)) clearCheckoutSession();
      setState(next);
    };
    const checkout = readCheckoutSession();
    // Without its claim an id confirms nothing (an old or copied link): the dashboard sends its
    // holder to sign in with the purchase e-mail, so it is left for the dashboard to say.
    if (!checkout?.claim) {
      setState({kind: 'none'});
      return;
    }
    setState({kind: 'checking'});
    api.checkoutStatus(checkout).then(
      (status) => settle({kind: status}),
      (error: unknown) => {
        console.error('Checking the checkout failed:', error);
        settle(refusedForGood(error) ? {kind: 'none'} : {kind: 'unchecked', message: messageOf(error)});
      },
    );
    return () => {
      current = false;
    };
  }, [api, attempt]);

  return {state, retry: () => setAttempt((count) => count + 1)};
}
