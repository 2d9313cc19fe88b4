import React, {useEffect, useRef, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useHistory, useLocation} from '@docusaurus/router';
import {appConfig, ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {returnPath, withReturnPath} from '../../../lib/auth/returnTo';
import {EMAIL_ERROR_MESSAGES, emailError, finishSignInUrl, rememberEmail, type EmailError} from '../../../lib/auth/emailLink';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';
import AuthCard, {authCardStyles as styles} from '../../layout/AuthCard';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import GoogleIcon from './GoogleIcon';

type Sending = {state: 'idle'} | {state: 'sending'} | {state: 'sent'; email: string} | {state: 'failed'; message: string};

/**
 * Google (popup) or a magic link by e-mail; a signed-in visitor goes straight to the callback URL
 * (the dashboard).
 */
export default function SignIn() {
  const {ready, user, client} = useAuth();
  const {localMode} = useSiteSettings();
  const history = useHistory();
  const {search} = useLocation();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<EmailError | null>(null);
  const [sending, setSending] = useState<Sending>({state: 'idle'});
  const [google, setGoogle] = useState(false);

  useEffect(() => {
    if (ready && user) history.replace(returnPath(search));
  }, [ready, user, history, search]);

  async function signInWithGoogle() {
    setGoogle(true);
    try {
      await (await client()).signInWithGoogle();
    } catch (failure) {
      // §8: a Google sign-in error is only logged; the visitor can try again or use e-mail.
      console.error('Google sign-in failed:', failure);
    } finally {
      setGoogle(false);
    }
  }

  async function sendLink(event: FormEvent) {
    event.preventDefault();
    const field = input.current!;
    const invalid = emailError(field);
    setError(invalid);
    if (invalid) {
      field.focus();
      return;
    }
    const email = field.value.trim();
    setSending({state: 'sending'});
    try {
      await (await client()).sendSignInLink(email, withReturnPath(finishSignInUrl(window.location.origin, email), returnPath(search)));
      rememberEmail(email);
      setSending({state: 'sent', email});
    } catch (failure) {
      console.error('Sending the sign-in link failed:', failure);
      setSending({state: 'failed', message: failure instanceof Error ? failure.message : String(failure)});
    }
  }

  if (sending.state === 'sent') {
    return (
      <AuthCard title="Check your inbox">
        <p role="status">
          We sent a sign-in link to <strong>{sending.email}</strong>. Open it in this browser to finish signing in.
        </p>
        {localMode.includes('sign-in') ? (
          <p className={styles.note}>Local mode: no e-mail is sent. The link is printed in the terminal running npm start.</p>
        ) : (
          <p className={styles.note}>It can take a minute to arrive. Look in your spam folder too.</p>
        )}
        <button type="button" className={controls.secondary} onClick={() => setSending({state: 'idle'})}>
          Use another e-mail
        </button>
      </AuthCard>
    );
  }

  const busy = !ready || sending.state === 'sending';
  return (
    <AuthCard title={`Sign in to ${appConfig.appName}`}>
      <button type="button" className={controls.secondary} onClick={signInWithGoogle} disabled={!ready || google}>
        {google ? <Spinner label="Signing in with Google" /> : <GoogleIcon />}
        Sign in with Google
      </button>
      <div className={styles.divider}>or</div>
      <form onSubmit={sendLink} noValidate>
        <label htmlFor="signin-email" className={styles.label}>
          Email
        </label>
        <input
          ref={input}
          id="signin-email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          className={clsx(controls.input, styles.input)}
          aria-invalid={error !== null}
          aria-describedby={error ? 'signin-email-error' : undefined}
          onChange={() => setError(null)}
        />
        {error && (
          <p id="signin-email-error" className={styles.error} role="alert">
            {EMAIL_ERROR_MESSAGES[error]}
          </p>
        )}
        {sending.state === 'failed' && (
          <p className={styles.error} role="alert">
            {sending.message}
          </p>
        )}
        <button type="submit" className={controls.primary} disabled={busy} aria-busy={sending.state === 'sending'}>
          {sending.state === 'sending' && <Spinner label="Sending the link" />}
          Send magic link
        </button>
      </form>
      <p className={styles.note}>
        By signing in you accept the <Link to={ROUTES.terms}>Terms of Service</Link> and the <Link to={ROUTES.privacy}>Privacy Policy</Link>.
      </p>
    </AuthCard>
  );
}
