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
 * worker answered to show: the console's sentence (or one `done` writes from the answer) on
 * success, its `error` on failure.
 */
export function useAction() {
  const notAdmin = useContext(NotAdminContext);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  const run = useCallback(
    async <A extends ActionAnswer>(action: () => Promise<A | void>, done: string | ((answer: A) => string), after?: () => void) => {
      setBusy(true);
      setOutcome(null);
      try {
        const answer = (await action()) ?? null;
        // A sentence of its own from the answer (a fix-all's counts), or the console's with what the status adds.
        setOutcome({ok: true, text: typeof done === 'function' ? done(answer as A) : answerText(answer, done)});
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
