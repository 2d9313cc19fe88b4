import {useEffect, useRef, useState} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import {appConfig} from '../../config';
import {ApiError} from '../../lib/api';
import {useAuth} from '../../lib/auth/AuthContext';
import {useApiClient} from '../../lib/useApiClient';
import {useSnackbar} from '../Snackbar';

/**
 * §4: a buyer back from Stripe carries `sessionId`; a guest is signed in with the token the worker
 * returns for that paid session. Answers true while that is still under way, so the page's guard
 * does not send the buyer away first.
 */
export function useCheckoutSignIn(): boolean {
  const {ready, user, client} = useAuth();
  const api = useApiClient();
  const history = useHistory();
  const location = useLocation();
  const snackbar = useSnackbar();
  // The page is prerendered without a query: read it only in the browser.
  const [working, setWorking] = useState(() => typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('sessionId'));
  const started = useRef(false);

  useEffect(() => {
    if (!ready || started.current) return;
    const query = new URLSearchParams(location.search);
    const sessionId = query.get('sessionId');
    if (!sessionId) {
      setWorking(false);
      return;
    }
    started.current = true;
    const dropSessionId = () => {
      query.delete('sessionId');
      const search = query.toString();
      history.replace({pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash});
    };
    if (user) {
      // Paid while signed in: the purchase is already this account's.
      dropSessionId();
      setWorking(false);
      return;
    }
    void (async () => {
      try {
        const {token} = await api.retrieveUserFromCheckoutSession(sessionId);
        await (await client()).signInWithCheckoutToken(token);
        dropSessionId();
        setWorking(false);
      } catch (error) {
        console.error('Signing in from the checkout failed:', error);
        if (error instanceof ApiError && error.code === 'SIGN_IN_REQUIRED') {
          // The e-mail has an account already: the purchase reaches it once its owner signs in.
          snackbar.show(error.message);
          history.replace(appConfig.auth.loginUrl);
          return;
        }
        snackbar.show(`Error: ${error instanceof Error ? error.message : String(error)}`);
        setWorking(false);
      }
    })();
  }, [ready, user, client, api, history, location, snackbar]);

  return working;
}
