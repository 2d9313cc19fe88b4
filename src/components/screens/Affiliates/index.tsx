import React from 'react';
import Link from '@docusaurus/Link';
import {AFFILIATE_WORDS, affiliateProgramme, ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {signInFor} from '../../../lib/auth/returnTo';
import type {AuthUser} from '../../../lib/auth/types';
import Spinner from '../../shared/Spinner';
import Account from './Account';
import styles from './styles.module.css';

export interface AffiliatesViewProps {
  /** Whether sign-in has said who is signed in: until then the page shows no way on. */
  ready: boolean;
  user: AuthUser | null;
  /** Where the browser goes with Stripe's link (payouts); the real navigation unless a test replaces it. */
  redirect?: (url: string) => void;
}

/**
 * The affiliate programme's page, as sign-in stands: everyone reads the pitch and the terms; a
 * visitor is offered sign-in, which comes back here; a signed-in user joins or, once joined, reads
 * their link and figures (Account). With no programme in the config, it says there is none.
 */
export function AffiliatesView({ready, user, redirect}: AffiliatesViewProps) {
  const programme = affiliateProgramme();
  if (!programme) {
    return (
      <div className={styles.affiliates}>
        <h1 className={styles.title}>{AFFILIATE_WORDS.heading}</h1>
        <p className={styles.pitch}>{AFFILIATE_WORDS.noProgramme}</p>
      </div>
    );
  }
  const terms = AFFILIATE_WORDS.terms();
  return (
    <div className={styles.affiliates}>
      <h1 className={styles.title}>{AFFILIATE_WORDS.heading}</h1>
      <p className={styles.pitch}>{AFFILIATE_WORDS.pitch(programme.commissionPercent)}</p>
      {!ready ? (
        <Spinner label={AFFILIATE_WORDS.loading} />
      ) : user ? (
        <Account redirect={redirect} />
      ) : (
        <section className={styles.card} aria-label={AFFILIATE_WORDS.join}>
          <p>{AFFILIATE_WORDS.signInToJoin}</p>
          {/* Built in the browser only (`ready` is false on the server): the return path reads the origin. */}
          <Link className={styles.link} to={signInFor(ROUTES.affiliates)}>
            {AFFILIATE_WORDS.signIn}
          </Link>
        </section>
      )}
      <section className={styles.card} aria-labelledby="affiliate-terms">
        <h2 id="affiliate-terms">{AFFILIATE_WORDS.termsHeading}</h2>
        <ul>
          {(terms || []).map((term) => (
            <li key={term}>{term}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** /affiliates: starts sign-in to know who is reading. */
export default function Affiliates() {
  const {ready, user} = useAuth();
  return <AffiliatesView ready={ready} user={user} />;
}
