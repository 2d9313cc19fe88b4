import React, {createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode} from 'react';
import styles from './styles.module.css';

/** How long a message stays up (§9). */
export const SNACKBAR_DURATION_MS = 3000;

interface SnackbarMessage {
  id: number;
  text: string;
}

interface SnackbarApi {
  show: (text: string) => void;
}

const SnackbarContext = createContext<SnackbarApi>({show: () => {}});

export function SnackbarProvider({children}: {children: ReactNode}) {
  const [message, setMessage] = useState<SnackbarMessage | null>(null);
  const show = useCallback((text: string) => setMessage({id: Date.now(), text}), []);
  const close = useCallback(() => setMessage(null), []);

  useEffect(() => {
    if (!message) return undefined;
    const timer = setTimeout(close, SNACKBAR_DURATION_MS);
    return () => clearTimeout(timer);
  }, [message, close]);

  const api = useMemo(() => ({show}), [show]);
  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <div className={styles.region} role="status" aria-live="polite">
        {message && (
          <div className={styles.snackbar} key={message.id}>
            <span>{message.text}</span>
            <button type="button" className={styles.action} onClick={close}>
              Close
            </button>
          </div>
        )}
      </div>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  return useContext(SnackbarContext);
}
