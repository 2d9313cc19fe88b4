import React, {createContext, useCallback, useContext, useId, useRef, useState, type ReactNode} from 'react';
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
 * The actions of one page (a purchase's): which of them acted last. Each action keeps its own
 * sentence, and a page shows only the last one's, so that an older one ("Access granted") never
 * stands beside what a later action changed (a refund that ends that access).
 */
const ActionScopeContext = createContext<{last: string | null; acted: (id: string) => void} | null>(null);

/** The page whose actions say one thing at a time: the last. */
export function ActionScope({children}: {children: ReactNode}) {
  const [last, setLast] = useState<string | null>(null);
  return <ActionScopeContext.Provider value={{last, acted: setLast}}>{children}</ActionScopeContext.Provider>;
}

/**
 * Runs one action against the worker at a time, then `after` (a reload), and keeps what the
 * worker answered to show: the console's sentence (or one `done` writes from the answer) on
 * success, its `error` on failure. A second run while one is on its way (a double click, a key
 * held down) is ignored, before the button has had time to turn disabled. `outcome` is null once
 * another action of the same ActionScope has run since.
 */
export function useAction() {
  const notAdmin = useContext(NotAdminContext);
  const scope = useContext(ActionScopeContext);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  const run = useCallback(
    async <A extends ActionAnswer>(
      action: () => Promise<A | void>,
      done: string | ((answer: A) => string),
      after?: () => void,
    ): Promise<boolean> => {
      if (running.current) return false;
      running.current = true;
      setBusy(true);
      setOutcome(null);
      scope?.acted(id);
      let worked = false;
      try {
        const answer = (await action()) ?? null;
        // A sentence of its own from the answer (a fix-all's counts), or the console's with what the status adds.
        setOutcome({ok: true, text: typeof done === 'function' ? done(answer as A) : answerText(answer, done)});
        worked = true;
      } catch (error) {
        if (isNotAdmin(error)) notAdmin();
        setOutcome({ok: false, text: messageOf(error)});
      } finally {
        running.current = false;
        setBusy(false);
        after?.();
      }
      return worked;
    },
    [notAdmin, scope, id],
  );
  const shown = scope && scope.last !== id ? null : outcome;
  return {busy, outcome: shown, run, say: setOutcome};
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
