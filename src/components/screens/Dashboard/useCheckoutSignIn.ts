import {useEffect, useRef, useState} from 'react';
import {useHistory} from '@docusaurus/router';
import {appConfig} from '../../../config';
import {ApiError, refusedForGood} from '../../../lib/api';
import {useAuth} from '../../../lib/auth/AuthContext';
import {clearCheckoutSession, readCheckoutSession} from '../../../lib/checkoutSession';
import {useApiClient} from '../../../lib/useApiClient';
import {useSnackbar} from '../../shared/Snackbar';
import {messageOf} from '../../../lib/errorMessage';

/** The worker's answers that send the buyer to sign in with the purchase e-mail instead. */
const SIGN_IN_INSTEAD = ['SIGN_IN_REQUIRED', 'SESSION_USED'];
const SIGN_IN_WITH_PURCHASE_EMAIL = 'Sign in with the e-mail you paid with to reach your purchase.';

/**
 * §4: a buyer back from Stripe brings a checkout session id and its claim (kept out of the address
 * bar by `lib/checkoutSession`); a guest is signed in with the token the worker returns for that
 * paid session. Answers true while that is still under way, so the page's guard does not send the buyer
 * away first.
 */
export function useCheckoutSignIn(): boolean {
  const {ready, user, client} = useAuth();
  const api = useApiClient();
  const history = useHistory();
  const snackbar = useSnackbar();
  const [working, setWorking] = useState(() => readCheckoutSession() !== null);
  const started = useRef(false);

  useEffect(() => {
    if (!ready || started.current) return;
    const checkout = readCheckoutSession();
    if (!checkout) {
      setWorking(false);
      return;
    }
    started.current = true;
    if (user) {
      // Paid while signed in: the purchase is already this account's.
      clearCheckoutSession();
      setWorking(false);
      return;
    }
    if (!checkout.claim) {
      // Back without the claim Stripe's redirect carries (an old link, a copied id): the id alone
      // signs no one in, and the purchase waits for the owner of its e-mail.
      clearCheckoutSession();
      snackbar.show(SIGN_IN_WITH_PURCHASE_EMAIL);
      history.replace(appConfig.auth.loginUrl);
      return;
    }
    void (async () => {
      try {
        const {token} = await api.retrieveUserFromCheckoutSession(checkout.sessionId, checkout.claim);
        // The exchange is single-use: whatever the sign-in does next, the id is spent.
        clearCheckoutSession();
        await (await client()).signInWithCheckoutToken(token);
        setWorking(false);
      } catch (error) {
        console.error('Signing in from the checkout failed:', error);
        // Refused for good, the id is spent; otherwise a reload can try the same id again.
        if (refusedForGood(error)) clearCheckoutSession();
        if (error instanceof ApiError && error.code && SIGN_IN_INSTEAD.includes(error.code)) {
          // The purchase reaches the account of its e-mail once its owner signs in.
          snackbar.show(error.message);
          history.replace(appConfig.auth.loginUrl);
          return;
        }
        snackbar.show(`Error: ${messageOf(error)}`);
        setWorking(false);
      }
    })();
  }, [ready, user, client, api, history, snackbar]);

  return working;
}
