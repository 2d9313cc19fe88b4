import React, {useCallback, useContext, useState} from 'react';
import {isNotAdmin, type ActionAnswer} from '../../../lib/adminApi';
import {answerText} from './format';
import {NotAdminContext} from './useAdminData';
import styles from './styles.module.css';
import {messageOf} from '../../../lib/errorMessage';

export interface ActionOutcome {
  ok: boolean;
  text: string;
}

/**
 * Runs one action against the worker at a time, then `after` (a reload), and keeps what the
 * worker answered to show: its message on success, its `error` on failure.
 */
export function useAction() {
  const notAdmin = useContext(NotAdminContext);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  const run = useCallback(
    async (action: () => Promise<ActionAnswer | void>, done: string, after?: () => void) => {
      setBusy(true);
      setOutcome(null);
      try {
        setOutcome({ok: true, text: answerText((await action()) ?? null, done)});
      } catch (error) {
        if (isNotAdmin(error)) notAdmin();
        setOutcome({ok: false, text: messageOf(error)});
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [notAdmin],
  );
  return {busy, outcome, run};
}

/** The worker's answer to the last action: a status when it worked, an alert when it did not. */
export function ActionResult({outcome}: {outcome: ActionOutcome | null}) {
  if (!outcome) return null;
  return outcome.ok ? (
    <p className={styles.done} role="status">
      {outcome.text}
    </p>
  ) : (
    <p className={styles.refused} role="alert">
      {outcome.text}
    </p>
  );
}
