import React, {useEffect, useId, useMemo, useRef, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {CircleCheck} from 'lucide-react';
import {landingExtras, type LeadCopy} from '../../../config';
import type {LeadResult} from '../../../config/api';
import {createApiClient} from '../../../lib/api';
import {useSiteSettings} from '../../../lib/SiteSettingsContext';
import Spinner from '../Spinner';
import styles from './styles.module.css';
import {messageOf} from '../../../lib/errorMessage';

export interface ButtonLeadProps {
  /** The label, placeholder, button and the two success messages. */
  copy?: LeadCopy;
  /** Called once the worker has the address; `stored` is false when it already had it. */
  onSaved?: (result: LeadResult & {email: string}) => void;
  className?: string;
}

type State = {kind: 'idle'} | {kind: 'sending'} | {kind: 'saved'; stored: boolean} | {kind: 'failed'; message: string};

/**
 * A waitlist form: one e-mail field and a button that sends it to the worker's
 * POST /api/leads. A spinner while it sends, then "on the list", or the
 * worker's message when it refuses.
 */
export default function ButtonLead({copy = landingExtras.lead, onSaved, className}: ButtonLeadProps) {
  const {workerUrl} = useSiteSettings();
  // A lead needs no sign-in: a visitor's client, with no token and no auth SDK.
  const api = useMemo(() => createApiClient({baseUrl: workerUrl}), [workerUrl]);
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({kind: 'idle'});
  const message = useRef<HTMLParagraphElement>(null);
  const id = useId();
  const inputId = `${id}-email`;
  const errorId = `${id}-error`;
  const sending = state.kind === 'sending';

  // The form goes away on success: focus moves to the message that replaces it.
  useEffect(() => {
    if (state.kind === 'saved') message.current?.focus();
  }, [state.kind]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    setState({kind: 'sending'});
    try {
      const {stored} = await api.saveLead(address);
      setState({kind: 'saved', stored});
      onSaved?.({email: address, stored});
    } catch (error) {
      setState({kind: 'failed', message: messageOf(error)});
    }
  }

  if (state.kind === 'saved') {
    return (
      <p ref={message} tabIndex={-1} role="status" className={clsx(styles.success, className)}>
        <CircleCheck size={20} aria-hidden="true" />
        {state.stored ? copy.stored : copy.known}
      </p>
    );
  }

  const failed = state.kind === 'failed';
  return (
    <form className={clsx(styles.form, className)} onSubmit={submit}>
      <label htmlFor={inputId} className="sr-only">
        {copy.label}
      </label>
      <div className={styles.row}>
        <input
          id={inputId}
          className={styles.input}
          type="email"
          name="email"
          autoComplete="email"
          required
          placeholder={copy.placeholder}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={failed || undefined}
          aria-describedby={failed ? errorId : undefined}
        />
        <button type="submit" className={styles.button} disabled={sending} aria-busy={sending}>
          {sending && <Spinner label="Sending" />}
          <span>{copy.button}</span>
        </button>
      </div>
      {failed && (
        <p id={errorId} role="alert" className={styles.error}>
          {state.message}
        </p>
      )}
    </form>
  );
}
