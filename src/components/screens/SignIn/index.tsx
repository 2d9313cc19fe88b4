import React, {useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {useHistory, useLocation} from '@docusaurus/router';
import {afterPasswordReset, appConfig, passwordReset, ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {returnPath, sentFrom, withReturnPath} from '../../../lib/auth/returnTo';
import {finishSignInUrl, rememberEmail} from '../../../lib/auth/emailLink';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';
import AuthCard, {authCardStyles as styles} from '../../layout/AuthCard';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import {messageOf} from '../../../lib/errorMessage';
import EmailForm, {type EmailAction, type EmailFormMode} from './EmailForm';
import GoogleIcon from './GoogleIcon';

/** What was e-mailed, for the "Check your inbox" card. */
type Sent = {kind: 'link' | 'reset' | 'register'; email: string};

const TITLES: Record<EmailFormMode, string> = {
  'sign-in': `Sign in to ${appConfig.appName}`,
  register: `Create your ${appConfig.appName} account`,
  reset: 'Reset your password',
};

const USE_EMAIL = 'Sign in with a magic link or a password below instead.';
/** What Google sign-in needs that local mode does not have, and what works instead. */
const GOOGLE_NEEDS_A_PROJECT = `Google sign-in needs a real Firebase project: in local mode the Auth emulator cannot reach Google. ${USE_EMAIL}`;
/** The visitor closed the popup, or opened another: nothing went wrong. */
const GOOGLE_CANCELLED = ['auth/popup-closed-by-user', 'auth/cancelled-popup-request'];

/**
 * Why a private page sent the visitor here, by the page (`?next=`). A buyer opening the welcome
 * e-mail's dashboard link on another device lands here: the line says which e-mail to use.
 */
function whySignIn(next: string): string {
  const page = new URL(next, 'https://site.invalid').pathname.replace(/\/+$/, '') || '/';
  if (page === ROUTES.dashboard) {
    return `Your dashboard is where you get the ${appConfig.appName} code. Sign in with the e-mail you paid with, and you come straight back to it.`;
  }
  if (page === ROUTES.admin)
    return "The seller's console is for the shop's admins. Sign in, and you come straight back to it.";
  return 'That page needs you signed in. Sign in, and you come straight back to it.';
}

/**
 * Google (popup), an e-mail and a password, or a magic link by e-mail; also registering and
 * "forgot password". A signed-in visitor goes straight on: to the page in `?next=`, else the
 * callback URL (the dashboard).
 */
export default function SignIn() {
  const {ready, user, client} = useAuth();
  const {localMode} = useSiteSettings();
  const history = useHistory();
  const {search} = useLocation();
  const [mode, setMode] = useState<EmailFormMode>('sign-in');
  const [sent, setSent] = useState<Sent | null>(null);
  const [google, setGoogle] = useState(false);
  const [googleError, setGoogleError] = useState<string | null>(null);
  // The page is prerendered without a query: read it once hydrated, so hydration matches.
  const [from, setFrom] = useState<string | null>(null);
  const [passwordChanged, setPasswordChanged] = useState(false);
  useEffect(() => {
    setFrom(sentFrom(search));
    setPasswordChanged(afterPasswordReset(search));
  }, [search]);

  useEffect(() => {
    if (ready && user) history.replace(returnPath(search));
  }, [ready, user, history, search]);

  async function signInWithGoogle() {
    if (localMode.includes('sign-in')) {
      // The Auth emulator cannot reach Google: the popup would fail with auth/internal-error.
      setGoogleError(GOOGLE_NEEDS_A_PROJECT);
      return;
    }
    setGoogle(true);
    setGoogleError(null);
    try {
      await (await client()).signInWithGoogle();
    } catch (failure) {
      console.error('Google sign-in failed:', failure);
      // Closing the popup is the visitor's own choice, not a failure to explain.
      if (!GOOGLE_CANCELLED.includes((failure as {code?: string}).code ?? ''))
        setGoogleError(`Google sign-in failed: ${messageOf(failure)} ${USE_EMAIL}`);
    } finally {
      setGoogle(false);
    }
  }

  async function run(action: EmailAction, email: string, password: string) {
    const auth = await client();
    const next = returnPath(search);
    const {origin} = window.location;
    if (action === 'password') {
      // Signed in: the effect above goes on to `next`.
      await auth.signInWithPassword(email, password);
    } else if (action === 'register') {
      // The link signs the new account in with its e-mail proven; the password comes after.
      await auth.sendSignInLink(
        email,
        withReturnPath(finishSignInUrl(origin, email), withReturnPath(ROUTES.newPassword, next)),
      );
      rememberEmail(email);
      setSent({kind: 'register', email});
    } else if (action === 'reset') {
      await auth.sendPasswordReset(email, {
        // Firebase's reset page continues here once the new password is set: the page then says so.
        signIn: `${origin}${withReturnPath(passwordReset.signInPage, next)}`,
        newPassword: `${origin}${withReturnPath(ROUTES.finishSignIn, withReturnPath(ROUTES.newPassword, next))}`,
      });
      setSent({kind: 'reset', email});
    } else {
      await auth.sendSignInLink(email, withReturnPath(finishSignInUrl(origin, email), next));
      rememberEmail(email);
      setSent({kind: 'link', email});
    }
  }

  if (ready && user) {
    // Never the signed-out form for a moment while the redirect happens.
    return (
      <AuthCard title="Signing you in">
        <p className={styles.note} role="status">
          <Spinner label="Signing you in" /> You are signed in. Taking you on…
        </p>
      </AuthCard>
    );
  }

  if (sent) {
    return (
      <AuthCard title="Check your inbox">
        <p role="status">
          {sent.kind === 'link' && (
            <>
              We sent a sign-in link to <strong>{sent.email}</strong>. Open it in this browser to finish signing in.
            </>
          )}
          {sent.kind === 'reset' && (
            <>
              If <strong>{sent.email}</strong> has an account, we sent it a link to choose a new password.
            </>
          )}
          {sent.kind === 'register' && (
            <>
              We sent a link to <strong>{sent.email}</strong>. Open it in this browser to confirm your e-mail, then
              choose your password.
            </>
          )}
        </p>
        {localMode.includes('sign-in') ? (
          <p className={styles.note}>
            {sent.kind === 'reset'
              ? 'Local mode: no e-mail is sent. The terminal running npm start prints the reset link: put your new password in it in place of NEW_PASSWORD_HERE.'
              : 'Local mode: no e-mail is sent. The link is printed in the terminal running npm start.'}
          </p>
        ) : (
          <p className={styles.note}>It can take a minute to arrive. Look in your spam folder too.</p>
        )}
        <button
          type="button"
          className={controls.secondary}
          onClick={() => {
            setSent(null);
            setMode('sign-in');
          }}>
          {sent.kind === 'link' ? 'Use another e-mail' : 'Back to sign in'}
        </button>
      </AuthCard>
    );
  }

  // In a browser where someone signed in, the form stays hidden until the provider says who
  // (the signed-in hint): a signed-in user on the way on never sees it for a moment.
  return (
    <div className={styles.signedOutOnly}>
      <AuthCard title={TITLES[mode]}>
        {passwordChanged && mode === 'sign-in' && <p role="status">{passwordReset.changed}</p>}
        {from && mode === 'sign-in' && <p>{whySignIn(from)}</p>}
        {mode !== 'reset' && (
          <>
            <button type="button" className={controls.secondary} onClick={signInWithGoogle} disabled={!ready || google}>
              {google ? <Spinner label="Signing in with Google" /> : <GoogleIcon />}
              Sign in with Google
            </button>
            {googleError && (
              <p className={styles.error} role="alert">
                {googleError}
              </p>
            )}
            <div className={styles.divider}>or</div>
          </>
        )}
        {mode === 'reset' && <p>Enter the e-mail of your account. We will send it a link to choose a new password.</p>}
        {mode === 'register' && (
          <p>Enter your e-mail. We will send it a link to confirm it, then you choose a password.</p>
        )}
        <EmailForm mode={mode} ready={ready} onSubmit={run} />
        <p className={styles.switches}>
          {mode === 'sign-in' ? (
            <>
              <button type="button" className={styles.textButton} onClick={() => setMode('reset')}>
                Forgot password?
              </button>
              <button type="button" className={styles.textButton} onClick={() => setMode('register')}>
                Create an account
              </button>
            </>
          ) : (
            <button type="button" className={styles.textButton} onClick={() => setMode('sign-in')}>
              {mode === 'register' ? 'I already have an account' : 'Back to sign in'}
            </button>
          )}
        </p>
        <p className={styles.note}>
          By signing in you accept the <Link to={ROUTES.terms}>Terms of Service</Link> and the{' '}
          <Link to={ROUTES.privacy}>Privacy Policy</Link>.
        </p>
      </AuthCard>
    </div>
  );
}
