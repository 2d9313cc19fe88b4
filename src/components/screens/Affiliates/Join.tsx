import React, {useId, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {AFFILIATE_CODE_PATTERN, AFFILIATE_CODE_RULE, AFFILIATE_WORDS} from '../../../config';
import type {AffiliateAnswer} from '../../../config/api';
import {ApiError} from '../../../lib/api';
import {messageOf} from '../../../lib/errorMessage';
import {useApiClient} from '../../../lib/useApiClient';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import account from './account.module.css';
import styles from './styles.module.css';

export interface JoinProps {
  /** The worker's answer once the user joined: their link and figures. */
  onJoined: (answer: AffiliateAnswer) => void;
  /** The worker answered 409 (the code is taken, or the user has already joined). */
  onConflict: () => void;
}

/**
 * Joining: the user names their code. The browser checks only its form, as the worker reads it
 * (trimmed, in lower case); whether it is free, and whether the account may join (a verified
 * e-mail), is the worker's to say, and its words are shown as they come.
 */
export default function Join({onJoined, onConflict}: JoinProps) {
  const api = useApiClient();
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const named = code.trim().toLowerCase();
  const invalid = named !== '' && !AFFILIATE_CODE_PATTERN.test(named);

  async function join(event: FormEvent) {
    event.preventDefault();
    if (busy || !AFFILIATE_CODE_PATTERN.test(named)) return;
    setBusy(true);
    setRefusal(null);
    try {
      onJoined(await api.joinAffiliates({code: named}));
    } catch (error) {
      setRefusal(messageOf(error));
      if (error instanceof ApiError && error.status === 409) onConflict();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.card} aria-labelledby={`${id}-heading`} onSubmit={(event) => void join(event)}>
      <h2 id={`${id}-heading`}>{AFFILIATE_WORDS.joinHeading}</h2>
      <p className={styles.muted}>{AFFILIATE_WORDS.joinIntro}</p>
      <label className={account.label} htmlFor={`${id}-code`}>
        {AFFILIATE_WORDS.codeLabel}
      </label>
      <div className={account.row}>
        <input
          id={`${id}-code`}
          className={clsx(controls.input, account.input)}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          maxLength={32}
          aria-invalid={invalid}
          aria-describedby={`${id}-rule`}
        />
        <button type="submit" className={controls.primary} disabled={busy || named === '' || invalid} aria-busy={busy}>
          {busy && <Spinner label={AFFILIATE_WORDS.joining} />}
          {AFFILIATE_WORDS.join}
        </button>
      </div>
      <p id={`${id}-rule`} className={clsx(account.hint, invalid && account.error)}>
        {AFFILIATE_CODE_RULE}.
      </p>
      {refusal && (
        <p className={account.error} role="alert">
          {refusal}
        </p>
      )}
    </form>
  );
}
