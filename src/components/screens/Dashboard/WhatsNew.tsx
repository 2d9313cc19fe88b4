import React, {useCallback, useEffect, useState} from 'react';
import {formatDay, tagBesideName, whatsNewWords} from '../../../config';
import type {BuyerReleases} from '../../../config/api';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import {YOUR_PLAN_ID} from './YourPlan';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/**
 * "What's new": the releases the buyer's plan entitles them to, newest first, with their notes, and
 * whether release e-mails reach them (on, or off after an unsubscribe link, with the switch back).
 * The notes are HTML the worker rendered from the release's Markdown, raw HTML shown as text and
 * links only to http(s) (worker/src/releases/notes.ts): shown as the worker gives them.
 * `onLatestTag` hears the tag a download serves now, for the dashboard's download.
 */
export default function WhatsNew({onLatestTag}: {onLatestTag?: (tag: string | null) => void}) {
  const api = useApiClient();
  const [loaded, setLoaded] = useState<BuyerReleases | 'failed' | null>(null);
  const [switching, setSwitching] = useState(false);
  const [said, setSaid] = useState<{text: string; error: boolean} | null>(null);

  useEffect(() => {
    let current = true;
    api
      .releases()
      .then((releases) => {
        if (!current) return;
        setLoaded(releases);
        // The download is marked with the release it serves, from this same answer.
        onLatestTag?.(releases.latestTag);
      })
      .catch((error: unknown) => {
        console.error('Reading the releases failed:', error);
        if (current) setLoaded('failed');
      });
    return () => {
      current = false;
    };
  }, [api, onLatestTag]);

  const switchEmails = useCallback(
    async (subscribed: boolean) => {
      setSwitching(true);
      setSaid(null);
      try {
        const now = await api.setReleaseEmails(subscribed);
        setLoaded((before) => (before && before !== 'failed' ? {...before, subscribed: now} : before));
        setSaid(
          now
            ? {text: 'Release e-mails are on: the next release reaches you by e-mail.', error: false}
            : subscribed
              ? // Turned off by the address's own unsubscribe link: only its owner turns them on again.
                {
                  text: "Release e-mails stay off: they were turned off from the purchase e-mail's own link. Sign in with that address to turn them on.",
                  error: true,
                }
              : {text: 'Release e-mails are off. Receipts and access e-mails still come.', error: false},
        );
      } catch (failure) {
        setSaid({
          text: failure instanceof ApiError ? failure.message : 'That did not work. Please try again.',
          error: true,
        });
      } finally {
        setSwitching(false);
      }
    },
    [api],
  );

  return (
    <section className={styles.card} aria-labelledby="whats-new-heading">
      <h2 id="whats-new-heading">What's new</h2>
      {loaded === null && <Spinner label="Loading the releases" />}
      {loaded === 'failed' && (
        <p className={styles.error} role="alert">
          The releases could not be loaded. Please reload the page.
        </p>
      )}
      {loaded && loaded !== 'failed' && (
        <>
          {!loaded.includesUpdates &&
            (loaded.teamOwner !== undefined ? (
              <p className={styles.muted}>{whatsNewWords.teamWithoutUpdates(loaded.teamOwner)}</p>
            ) : (
              <p className={styles.muted}>
                {whatsNewWords.withoutUpdates()} <a href={`#${YOUR_PLAN_ID}`}>{whatsNewWords.upgradeLink}</a>.
              </p>
            ))}
          {loaded.later && <p>{whatsNewWords.later(loaded.later)}</p>}
          {loaded.releases.length === 0 ? (
            <p className={styles.muted}>
              {loaded.includesUpdates || !loaded.later ? whatsNewWords.none : whatsNewWords.noneUpToPurchase}
            </p>
          ) : (
            <ol className={styles.releases}>
              {loaded.releases.map((release) => (
                <li key={release.tag}>
                  <article aria-labelledby={`release-${release.tag}`}>
                    <h3 id={`release-${release.tag}`}>
                      {release.name}
                      {tagBesideName(release) && <span className={styles.muted}> {release.tag}</span>}
                    </h3>
                    <p className={styles.muted}>
                      <time dateTime={new Date(release.publishedAt).toISOString()}>
                        {formatDay(release.publishedAt)}
                      </time>
                      {release.url && (
                        <>
                          {' · '}
                          <a href={release.url} target="_blank" rel="noopener noreferrer">
                            On GitHub
                          </a>
                        </>
                      )}
                    </p>
                    <div className={styles.notes} dangerouslySetInnerHTML={{__html: release.notesHtml}} />
                  </article>
                </li>
              ))}
            </ol>
          )}
          {loaded.teamOwner !== undefined ? (
            <p className={styles.muted}>{whatsNewWords.teamEmails(loaded.teamOwner)}</p>
          ) : (
            <div className={styles.releaseEmails}>
              <p>Release e-mails: {loaded.subscribed ? 'on' : 'off'}</p>
              <button
                type="button"
                className={controls.secondary}
                disabled={switching}
                aria-busy={switching}
                onClick={() => void switchEmails(!loaded.subscribed)}>
                {loaded.subscribed ? 'Stop release e-mails' : 'E-mail me new releases'}
              </button>
            </div>
          )}
          {said && (
            <p className={said.error ? styles.error : styles.muted} role={said.error ? 'alert' : 'status'}>
              {said.text}
            </p>
          )}
        </>
      )}
    </section>
  );
}
