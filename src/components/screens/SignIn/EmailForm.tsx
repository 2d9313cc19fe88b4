import React, {useEffect, useRef, useState, type FormEvent} from 'react';
import {EMAIL_ERROR_MESSAGES, emailError} from '../../../lib/auth/emailLink';
import {authCardStyles as styles} from '../../layout/AuthCard';
import AuthField from '../../layout/AuthCard/AuthField';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import {messageOf} from '../../../lib/errorMessage';

/** What the form is for: signing in (a password or a magic link), a new account, or a reset. */
export type EmailFormMode = 'sign-in' | 'register' | 'reset';

/** The button pressed: each one is a different call to the provider. */
export type EmailAction = 'password' | 'link' | 'register' | 'reset';

export interface EmailFormProps {
  mode: EmailFormMode;
  /** False until sign-in has started: the buttons wait for it. */
  ready: boolean;
  /** Runs the action; a rejection's message is shown under the form. */
  onSubmit: (action: EmailAction, email: string, password: string) => Promise<void>;
}

const BUTTONS: Record<EmailFormMode, {action: EmailAction; label: string; busy: string}[]> = {
  'sign-in': [
    {action: 'password', label: 'Sign in', busy: 'Signing in'},
    {action: 'link', label: 'Send magic link', busy: 'Sending the link'},
  ],
  // A new account proves its e-mail first (a link), then chooses a password on /new-password: a
  // password chosen before the proof would survive the owner's first sign-in, whoever chose it.
  register: [{action: 'register', label: 'Create account', busy: 'Sending the link'}],
  reset: [{action: 'reset', label: 'Send reset link', busy: 'Sending the link'}],
};

const PASSWORD_REQUIRED = 'Enter your password, or use Send magic link.';

/**
 * The e-mail field, and the password field when signing in. The e-mail typed stays when the mode
 * changes. The first button is the one Enter presses.
 */
export default function EmailForm({mode, ready, onSubmit}: EmailFormProps) {
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const [emailInvalid, setEmailInvalid] = useState<string | null>(null);
  const [passwordInvalid, setPasswordInvalid] = useState<string | null>(null);
  const [running, setRunning] = useState<EmailAction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const withPassword = mode === 'sign-in';

  // Another mode asks something else: what went wrong before no longer applies.
  useEffect(() => {
    setEmailInvalid(null);
    setPasswordInvalid(null);
    setFailure(null);
  }, [mode]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const action = (submitter?.value as EmailAction | undefined) ?? BUTTONS[mode][0]!.action;
    const email = emailInput.current!;
    const password = passwordInput.current;
    const emailProblem = emailError(email);
    const passwordProblem = action === 'password' && password?.value === '' ? PASSWORD_REQUIRED : null;
    setEmailInvalid(emailProblem && EMAIL_ERROR_MESSAGES[emailProblem]);
    setPasswordInvalid(passwordProblem);
    setFailure(null);
    if (emailProblem) return email.focus();
    if (passwordProblem) return password!.focus();
    setRunning(action);
    try {
      await onSubmit(action, email.value.trim(), password?.value ?? '');
    } catch (error) {
      console.error(`The ${action} step failed:`, error);
      setFailure(messageOf(error));
    } finally {
      setRunning(null);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <AuthField
        ref={emailInput}
        id="signin-email"
        label="Email"
        error={emailInvalid}
        name="email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        onChange={() => setEmailInvalid(null)}
      />
      {withPassword && (
        <AuthField
          ref={passwordInput}
          id="signin-password"
          label="Password"
          error={passwordInvalid}
          name="password"
          type="password"
          autoComplete="current-password"
          onChange={() => setPasswordInvalid(null)}
        />
      )}
      {failure && (
        <p className={styles.error} role="alert">
          {failure}
        </p>
      )}
      <div className={styles.actions}>
        {BUTTONS[mode].map((button, index) => (
          <button
            key={button.action}
            type="submit"
            value={button.action}
            className={index === 0 ? controls.primary : controls.secondary}
            disabled={!ready || running !== null}
            aria-busy={running === button.action}>
            {running === button.action && <Spinner label={button.busy} />}
            {button.label}
          </button>
        ))}
      </div>
    </form>
  );
}
