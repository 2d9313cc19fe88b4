import React, {createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode} from 'react';
import {isNotAdmin, type AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';
import {messageOf} from '../../../lib/errorMessage';

/**
 * Told when the worker answers 403 ADMIN_ONLY: the console then shows "not an admin" and no
 * panel at all, whichever panel asked first.
 */
export const NotAdminContext = createContext<() => void>(() => undefined);

export interface Loaded<T> {
  /** The last answer, kept while the next one loads (a page turn does not blank the table). */
  data?: T;
  /** The worker's message when the last load failed. */
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Loads what `load` reads from the worker, again whenever `load` changes or `reload` is called. */
export function useAdminData<T>(load: (api: AdminApi) => Promise<T>): Loaded<T> {
  const api = useAdminApi();
  const notAdmin = useContext(NotAdminContext);
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({loading: true});
  const latest = useRef(0);

  const reload = useCallback(() => {
    const call = ++latest.current;
    setState((current) => ({data: current.data, loading: true}));
    load(api).then(
      (data) => {
        if (call === latest.current) setState({data, loading: false});
      },
      (error: unknown) => {
        if (call !== latest.current) return;
        if (isNotAdmin(error)) notAdmin();
        setState({loading: false, error: messageOf(error)});
      },
    );
  }, [api, load, notAdmin]);

  useEffect(reload, [reload]);
  return {...state, reload};
}

export interface ShowLoadedProps<T> {
  loaded: Loaded<T>;
  /** What is loading, for the spinner: "Loading purchases". */
  label: string;
  children: (data: T) => ReactNode;
}

/** A spinner, then the data, or the worker's message with a Try again. */
export function ShowLoaded<T>({loaded, label, children}: ShowLoadedProps<T>) {
  if (loaded.error !== undefined) {
    return (
      <div className={styles.failure} role="alert">
        <p>{loaded.error}</p>
        <button type="button" className={controls.secondary} onClick={loaded.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (loaded.data === undefined) {
    return (
      <p className={styles.loading}>
        <Spinner label={label} />
      </p>
    );
  }
  return <div aria-busy={loaded.loading}>{children(loaded.data)}</div>;
}
