import React, {useCallback, useEffect, useRef, useState} from 'react';
import {AFFILIATE_WORDS} from '../../../config';
import type {AffiliateAnswer} from '../../../config/api';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import Join from './Join';
import Joined from './Joined';
import styles from './styles.module.css';

/** What the worker said of the signed-in user's place in the programme, or why it could not. */
type Loaded = AffiliateAnswer | {failed: string} | null;

export interface AccountProps {
  /** Where the browser goes with Stripe's link (Payouts); the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

/**
 * The signed-in user's part of the page: the form to join until they have, then their link and
 * figures. A worker that runs no programme (404) is said so; any other failure offers Try again.
 */
export default function Account({redirect}: AccountProps) {
  const api = useApiClient();
  const [loaded, setLoaded] = useState<Loaded>(null);
  const latest = useRef(0);

  const load = useCallback(() => {
    const call = ++latest.current;
    setLoaded(null);
    api.affiliate().then(
      (answer) => call === latest.current && setLoaded(answer),
      (error: unknown) => {
        console.error('Reading the affiliate account failed:', error);
        if (call !== latest.current) return;
        const none = error instanceof ApiError && error.status === 404;
        setLoaded({failed: none ? AFFILIATE_WORDS.noProgramme : AFFILIATE_WORDS.loadFailed});
      },
    );
  }, [api]);
  useEffect(() => {
    load();
    // An answer that comes after the page left is dropped.
    return () => {
      latest.current += 1;
    };
  }, [load]);

  /** After a refusal that may mean the user joined in another tab: shows their link if so. */
  const recheck = useCallback(() => {
    api.affiliate().then(
      (answer) => answer.affiliate && setLoaded(answer),
      () => undefined,
    );
  }, [api]);

  if (loaded === null) return <Spinner label={AFFILIATE_WORDS.loading} />;
  if ('failed' in loaded) {
    return (
      <div className={styles.card} role="alert">
        <p>{loaded.failed}</p>
        {loaded.failed === AFFILIATE_WORDS.loadFailed && (
          <button type="button" className={controls.secondary} onClick={load}>
            {AFFILIATE_WORDS.tryAgain}
          </button>
        )}
      </div>
    );
  }
  if (!loaded.affiliate) return <Join onJoined={setLoaded} onConflict={recheck} />;
  return <Joined affiliate={loaded.affiliate} redirect={redirect} />;
}
