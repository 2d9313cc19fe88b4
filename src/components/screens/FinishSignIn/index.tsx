import React, {useEffect, useRef, useState} from 'react';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import {appConfig} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {returnPath} from '../../../lib/auth/returnTo';
import {forgetEmail, rememberedEmail} from '../../../lib/auth/emailLink';
import AuthCard, {authCardStyles as styles} from '../../layout/AuthCard';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import {messageOf} from '../../../lib/errorMessage';
import {ApiError, type ApiClientOptions, createApiClient} from '../../../lib/api';
import type {AuthClient} from '../../../lib/auth/types';
import {useApiOptions} from '../../../lib/useApiClient';

/**
 * Where an e-mail sign-in link returns (§2): confirms the link, tells the worker, then goes to the
 * page in `?next=` (the callback URL by default, /new-password after a reset or a registration).
 */
export default function FinishSignIn() {
  const {ready, client} = useAuth();
  const apiOptions = useApiOptions();
  const history = useHistory();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!ready || started.current) return;
    // A link works once: never run the exchange twice, whatever re-renders.
    started.current = true;
    void (async () => {
      try {
        const auth = await client();
        const url = window.location.href;
        // Supabase sends an expired or refused link back with its reason in the query.
        const refused = new URL(url).searchParams.get('error_description');
        if (refused) {
          setFailure(refused);
          return;
        }
        if (!auth.isSignInLink(url)) {
          setFailure('This is not a sign-in link, or it is incomplete. Ask for a new one.');
          return;
        }
        let email = new URL(url).searchParams.get('email') || rememberedEmail();
        if (!email && auth.linkNeedsEmail) {
          // Opened on another device: Firebase must check the address the link was sent to.
          email = window.prompt('Please provide your email for confirmation')?.trim() || null;
          if (!email) {
            setFailure('The e-mail address is needed to finish signing in.');
            return;
          }
        }
        await auth.completeSignInLink(url, email);
        forgetEmail();
        const ended = await tellWorker(auth, apiOptions);
        if (ended) {
          setFailure(ended);
          return;
        }
        history.replace(returnPath(new URL(url).search));
      } catch (error) {
        console.error('Finishing the sign-in link failed:', error);
        setFailure(messageOf(error));
      }
    })();
  }, [ready, client, history, apiOptions]);

  if (failure) {
    return (
      <AuthCard title="Sign-in did not finish">
        <p role="alert">{failure}</p>
        <Link className={controls.primary} to={appConfig.auth.loginUrl}>
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Signing you in">
      <p className={styles.note} role="status">
        <Spinner label="Signing you in" /> Checking your link…
      </p>
    </AuthCard>
  );
}

/**
 * The worker sees the sign-in before anything else happens in it: an account's first sign-in
 * with its e-mail proven removes a password someone else may have set before, and that must come
 * before the owner chooses their own on /new-password. Answers the worker's words when it ended
 * the session (it then signed out); a worker out of reach does not stop the sign-in.
 */
async function tellWorker(auth: AuthClient, apiOptions: ApiClientOptions): Promise<string | null> {
  try {
    await createApiClient({...apiOptions, idToken: (refresh) => auth.idToken(refresh)}).signedIn();
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SESSION_ENDED') return error.message;
    console.warn('The worker did not hear of this sign-in:', error);
    return null;
  }
}
