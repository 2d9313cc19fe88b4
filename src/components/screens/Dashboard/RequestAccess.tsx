import React, {useEffect, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {checkoutPriceId, dashboardPlan} from '../../../config';
import {ApiError} from '../../../lib/api';
import type {AuthUser} from '../../../lib/auth/types';
import {useApiClient} from '../../../lib/useApiClient';
import {useCheckout} from '../../../lib/useCheckout';
import {useSnackbar} from '../../shared/Snackbar';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';

/** §8's messages, word for word. */
export const ACCESS_MESSAGES = {
  sent: 'Check your email!',
  failed: 'Error requesting access. Try again later or contact support.',
  usernameRequired: 'Fill out username',
} as const;
/** How long the username message stays (§9). */
export const USERNAME_MESSAGE_MS = 3000;

/**
 * The worker's refusals of the username itself, whose own message says what is wrong with it: not
 * a valid GitHub username (400), one GitHub does not know (404), or an account already used
 * elsewhere (409). They belong on the field, where the buyer fixes them.
 */
function isAboutTheUsername(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 404, 409].includes(error.status);
}

/**
 * The other refusals the buyer can act on, whose message says how: a purchase out of account
 * changes (429 SWAP_LIMIT, which names support), a move of the seat on a day GitHub's invitations
 * are used up (429 INVITATION_CAP: the old account keeps access, try tomorrow), and a checkout
 * sign-in that has ended (401 SESSION_ENDED: sign in with the purchase e-mail). A plain 429 or a
 * 5xx is not theirs to fix.
 */
function isBuyersToFix(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    ((error.status === 429 && (error.code === 'SWAP_LIMIT' || error.code === 'INVITATION_CAP')) ||
      error.code === 'SESSION_ENDED')
  );
}

export interface RequestAccessProps {
  user: AuthUser;
  /** The username access was last asked for, to start from. */
  initialUsername?: string;
  /** Called after the worker accepted a request, to show the new status. */
  onRequested: () => void;
  redirect?: (url: string) => void;
}

/**
 * §4: checks payment first (a buyer who has not paid goes to checkout for `dashboardPlan()`), then
 * needs a username, then asks the worker for the invitation.
 */
/**
 * The answer to the last Request Access, shown under the form, where the buyer is looking (a snack
 * bar would cover the form on a short screen): a refusal of the username on the field, the news
 * that the invitation went, or a failure. Only the latest is shown: each request clears the last.
 */
type Answer =
  {kind: 'field'; text: string; fades?: boolean} | {kind: 'sent'; text: string} | {kind: 'failed'; text: string};

/**
 * §4: checks payment first (a buyer who has not paid goes to checkout for `dashboardPlan()`), then
 * needs a username, then asks the worker for the invitation.
 */
export default function RequestAccess({user, initialUsername = '', onRequested, redirect}: RequestAccessProps) {
  const api = useApiClient();
  const snackbar = useSnackbar();
  const checkout = useCheckout({onError: snackbar.show});
  const [username, setUsername] = useState(initialUsername);
  const [loading, setLoading] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => setUsername((current) => current || initialUsername), [initialUsername]);
  // "Fill out username" stays 3 s (§5); a later answer replaces it at once.
  useEffect(() => {
    if (answer?.kind !== 'field' || !answer.fades) return undefined;
    const timer = setTimeout(() => setAnswer((current) => (current === answer ? null : current)), USERNAME_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [answer]);

  async function hasPaid(): Promise<boolean> {
    try {
      return (await api.userHasPaid(user.uid)).hasPaid;
    } catch (error) {
      // §8: a 404 from the paid check means no purchase.
      if (error instanceof ApiError && error.status === 404) return false;
      throw error;
    }
  }

  async function request(event: FormEvent) {
    event.preventDefault();
    setAnswer(null);
    setLoading(true);
    try {
      if (!(await hasPaid())) {
        await checkout.start({priceId: checkoutPriceId(dashboardPlan()), redirect});
        return;
      }
      const wanted = username.trim();
      if (!wanted) {
        setAnswer({kind: 'field', text: ACCESS_MESSAGES.usernameRequired, fades: true});
        return;
      }
      const result = await api.addUserToRepo({username: wanted, userId: user.uid});
      setAnswer({
        kind: 'sent',
        text:
          result.status === 'active'
            ? `@${wanted} already has access to the repository.`
            : result.status === 'queued'
              ? `${ACCESS_MESSAGES.sent} It is queued: the access panel says when it goes out.`
              : ACCESS_MESSAGES.sent,
      });
      onRequested();
    } catch (error) {
      console.error('Requesting access failed:', error);
      if (isAboutTheUsername(error)) setAnswer({kind: 'field', text: error.message});
      else setAnswer({kind: 'failed', text: isBuyersToFix(error) ? error.message : ACCESS_MESSAGES.failed});
    } finally {
      setLoading(false);
    }
  }

  const busy = loading || checkout.loading;
  const fieldError = answer?.kind === 'field' ? answer.text : null;
  return (
    <form className={styles.request} onSubmit={request} noValidate aria-label="Request access to the repository">
      <label htmlFor="github-username" className={styles.label}>
        GitHub username
      </label>
      <div className={styles.row}>
        <input
          id="github-username"
          name="username"
          className={clsx(controls.input, styles.input)}
          placeholder="octocat"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={39}
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            // An answer about the username as it was is no longer about this one.
            setAnswer(null);
          }}
          aria-invalid={fieldError !== null}
          aria-describedby={fieldError ? 'github-username-error' : undefined}
        />
        <button type="submit" className={controls.primary} disabled={busy} aria-busy={busy}>
          {busy && <Spinner label="Requesting access" />}
          Request Access
        </button>
      </div>
      {fieldError && (
        <p id="github-username-error" className={styles.error} role="alert">
          {fieldError}
        </p>
      )}
      {answer?.kind === 'failed' && (
        <p className={styles.error} role="alert">
          {answer.text}
        </p>
      )}
      {/* There before its words, so that a screen reader reads them out when they come. */}
      <p className={styles.answer} role="status">
        {answer?.kind === 'sent' ? answer.text : null}
      </p>
    </form>
  );
}
