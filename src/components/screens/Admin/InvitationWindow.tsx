import React from 'react';
import type {InvitationWindow as Window} from '../../../config/api';
import {when} from './format';
import styles from './styles.module.css';

/**
 * GitHub's cap on invitations as the worker counts it: how much of the last 24 hours' allowance
 * is used, how many buyers wait in the queue, and when the last of them is expected to be invited.
 */
export default function InvitationWindow({window: figures}: {window: Window}) {
  const full = figures.usedLast24h >= figures.cap;
  return (
    <section aria-label="Invitations and GitHub's daily limit">
      <dl className={styles.figures}>
        <div className={full ? styles.notable : undefined}>
          <dt>Invitations in the last 24 hours</dt>
          <dd>
            {figures.usedLast24h} of {figures.cap}
          </dd>
        </div>
        <div className={figures.queued > 0 ? styles.notable : undefined}>
          <dt>Waiting in the queue</dt>
          <dd>{figures.queued}</dd>
        </div>
        <div>
          <dt>Queue empty by</dt>
          <dd>{figures.drainsBy === null ? 'Nothing waits' : when(figures.drainsBy)}</dd>
        </div>
      </dl>
      <p className={styles.muted}>
        GitHub accepts at most {figures.cap} invitations to a repository in any 24 hours. Past that, buyers wait in
        line, first come first served, and each is invited and e-mailed as the window frees; their dashboard shows their
        place.
      </p>
    </section>
  );
}
