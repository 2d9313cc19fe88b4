import React, {useCallback, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {appConfig, endedMemberWords, memberStateWords} from '../../../config';
import type {AdminGrant, AdminMember, AdminPurchaseDetail, PurchaseEvent, PurchaseEventKind} from '../../../config/api';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import {adminHref} from './adminUrl';
import {AccessBadge, CardCountryBadge, StateBadge} from './Badges';
import CardCountryReview from './CardCountryReview';
import Confirm from './Confirm';
import Field from './Field';
import MemberActions from './MemberActions';
import Refund from './Refund';
import SeatRefund from './SeatRefund';
import {adminMemberName, shownMember} from './shownMember';
import Upgrades from './Upgrades';
import {day, EVENT_STATES, money, stripeEvent, times, when} from './format';
import {ActionResult, ActionScope, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import styles from './styles.module.css';

const EVENT_KINDS: Record<PurchaseEventKind, string> = {
  stripe: 'Stripe',
  invitation: 'Invitation',
  removal: 'Removal',
  email: 'E-mail',
  admin: 'Admin',
  upgrade: 'Upgrade',
};

function History({events}: {events: PurchaseEvent[]}) {
  if (events.length === 0) return <p className={styles.muted}>Nothing recorded yet.</p>;
  const newestFirst = [...events].sort((a, b) => b.at - a.at);
  return (
    <ol className={styles.history} aria-label="History, newest first">
      {newestFirst.map((event, index) => (
        <li key={`${event.at}-${index}`} data-status={event.status}>
          <span className={styles.badge} data-tone={event.status === 'failed' ? 'bad' : 'quiet'}>
            {EVENT_KINDS[event.kind] ?? event.kind}
          </span>{' '}
          <strong>{event.kind === 'stripe' ? stripeEvent(event.summary) : event.summary}</strong>
          {/* An invitation's line already ends in its state ("@ada: pending"); say it once. */}
          {event.status && !event.summary.endsWith(event.status) && (
            <> ({EVENT_STATES[event.status] ?? event.status})</>
          )}
          <br />
          <time dateTime={new Date(event.at).toISOString()} className={styles.muted}>
            {when(event.at)}
          </time>
          {event.detail && <p className={styles.detail}>{event.detail}</p>}
        </li>
      ))}
    </ol>
  );
}

/** An extra repository's name in the config (else its key); null for the kit's own. */
function extraName(key: string): string | null {
  return key === 'kit' ? null : ((appConfig.extraRepositories as Record<string, {name: string}>)[key]?.name ?? key);
}

/** A grant's repository as the facts list names it. */
function repositoryLabel(key: string): string {
  const name = extraName(key);
  return name === null ? 'Kit repository' : `${name} (extra repository)`;
}

/** A grant's state in the facts, in the same words for every repository. */
function grantWords(grant: AdminGrant): string {
  if (grant.status === 'pending' && grant.expired) return 'pending, expired';
  if (grant.status === 'removal_failed') return 'removal failed: the account may still be on it (Retry under Failures)';
  if (grant.queue) return `queued: number ${grant.queue.position} in line for GitHub's daily limit`;
  return grant.status;
}

/** Where a member's seat stands, in the words the owner reads, or how it ended. */
function memberWords(member: AdminMember): string {
  if (member.state === 'withdrawn' || member.state === 'removed')
    return endedMemberWords(member.state, member.endReason ?? 'removed');
  return memberStateWords(shownMember(member));
}

/** A team purchase's members: every seat given, the newest first, held or ended, the seller's actions on each; and its seats' refund. */
function Team({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  const api = useAdminApi();
  const action = useAction();
  const {busy, outcome, run} = action;
  const held = purchase.members.filter((member) => member.state === 'invited' || member.state === 'joined');
  // The seller acts on a member only while the purchase is paid (a seat moves only while not revoked).
  const actable = purchase.state === 'paid';
  const {seatRefund} = purchase;
  return (
    <section aria-labelledby="team-heading">
      <h3 id="team-heading">Team</h3>
      <p>{`${purchase.seats} seats: the buyer's own and ${purchase.seats - 1} for members, ${held.length} given.`}</p>
      {purchase.members.length === 0 ? (
        <p className={styles.muted}>The buyer has given no seat yet.</p>
      ) : (
        <ul className={styles.history} aria-label="Members, newest first">
          {purchase.members.map((member) => (
            <li key={`${member.seat}-${member.updatedAt}-${member.state}`}>
              <strong>{adminMemberName(member)}</strong> <span className={styles.muted}>seat {member.seat}</span>
              {member.username && member.email && <span className={styles.muted}> · {member.email}</span>}
              <p className={styles.detail}>{memberWords(member)}</p>
              {/* The member's own seat's invitation, renewed as the buyer's is: the worker asks GitHub first. */}
              {held.includes(member) && member.access === 'pending' && member.username && (
                <Confirm
                  label={`Resend @${member.username}'s invitation`}
                  question={`A fresh invitation goes to @${member.username}, in place of the one GitHub no longer honours (GitHub is asked first: one still valid stays).`}
                  disabled={busy}
                  onConfirm={() =>
                    void run(
                      () => api.resend(purchase.sessionId, 'kit', member.seat),
                      `Invitation resent to @${member.username}.`,
                      reload,
                    )
                  }
                />
              )}
              {actable && held.includes(member) && (
                <MemberActions
                  sessionId={purchase.sessionId}
                  member={member}
                  movable={purchase.revokedBySellerAt === null}
                  action={action}
                  reload={reload}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ActionResult outcome={outcome} />
      {seatRefund && <SeatRefund purchase={{...purchase, seatRefund}} held={held} reload={reload} />}
    </section>
  );
}

/** Grant, revoke, resend, reset: each confirmed in the page, then the purchase is read again. */
function AccessActions({purchase, reload}: {purchase: AdminPurchaseDetail; reload: () => void}) {
  const api = useAdminApi();
  const {busy, outcome, run} = useAction();
  const {access, sessionId, revokedBySellerAt} = purchase;
  const [username, setUsername] = useState(access?.username ?? '');
  useEffect(() => setUsername((current) => current || access?.username || ''), [access?.username]);
  const wanted = username.trim().replace(/^@/, '');
  // The seller's revocation ends a paid purchase's right to the code, whatever way it gets it: its
  // seat if it has one, and its downloads (a purchase that only downloads has no seat).
  const revokedBySeller = revokedBySellerAt !== null;
  const revocable = purchase.state === 'paid' && !revokedBySeller;
  // With no account named, Grant access gives back only the right to download and to ask: for a
  // purchase that never had a seat (one that had is given back by inviting an account).
  const giveBackOnly = revokedBySeller && access === null && !wanted;
  // What the worker takes: a resend of a pending invitation GitHub says expired (it asks again
  // before sending); a failed invitation is sent again with Grant access.
  const seatGrant = purchase.grants.find((grant) => grant.key === 'kit');
  const pending = access?.status === 'pending';
  // Every repository's invitation GitHub no longer honours (an extra one's after the cron's last re-send).
  const expired = purchase.grants.filter((grant) => grant.status === 'pending' && grant.expired);
  const seat = access && ['queued', 'pending', 'active', 'failed'].includes(access.status) ? access.username : null;
  // The revocation is each purchase's own: the buyer's other paid purchases not revoked keep the code.
  const others = purchase.otherPaidPurchases.filter((other) => other.revokedBySellerAt === null);
  const keptBy =
    others.length === 0
      ? ''
      : ` The buyer also holds ${others.length === 1 ? 'another paid purchase' : `${others.length} other paid purchases`} (${others
          .map((other) => `${other.plan ?? 'a plan no longer sold'}, ${day(other.createdAt)}`)
          .join(
            '; ',
          )}), which ${others.length === 1 ? 'keeps' : 'keep'} the code: revoke ${others.length === 1 ? 'it' : 'each'} too to end all of their access.`;

  return (
    <section aria-labelledby="access-actions-heading">
      <h3 id="access-actions-heading">Access</h3>
      {revokedBySeller && (
        <p className={styles.muted}>
          Access revoked by the seller on {when(revokedBySellerAt)}: the buyer can neither download the code nor ask for
          an invitation. Grant access gives it back.
        </p>
      )}
      <div className={styles.grant}>
        <Field id="grant-username" label="GitHub username" value={username} onChange={setUsername} maxLength={40}>
          <Confirm
            label="Grant access"
            question={
              giveBackOnly
                ? 'The buyer may download the code and ask for an invitation again.'
                : `@${wanted} is invited to the repository for this purchase${revokedBySeller ? ', and the buyer may download the code again' : ''}.`
            }
            disabled={busy || !(wanted || giveBackOnly)}
            onConfirm={() =>
              void run(
                () => (giveBackOnly ? api.grant(sessionId) : api.grant(sessionId, wanted)),
                giveBackOnly
                  ? 'Access given back: the buyer may download the code and ask for an invitation.'
                  : `Access granted to @${wanted}.`,
                reload,
              )
            }
          />
        </Field>
      </div>
      {others.length > 0 && (
        <p className={styles.muted}>
          The buyer's other paid {others.length === 1 ? 'purchase' : 'purchases'}, each with access of its own until
          revoked:{' '}
          {others.map((other, index) => (
            <React.Fragment key={other.sessionId}>
              {index > 0 && ', '}
              <Link to={adminHref({purchase: other.sessionId})}>
                {other.plan ?? 'a plan no longer sold'}, {day(other.createdAt)}
              </Link>
            </React.Fragment>
          ))}
          .
        </p>
      )}
      {pending && (
        <p className={styles.muted}>
          {seatGrant?.expired
            ? `GitHub says @${access.username}'s invitation expired before it was accepted.`
            : `@${access.username} has not accepted the invitation yet. GitHub honours one for seven days; once it expires, it can be sent again here.`}
        </p>
      )}
      <div className={styles.actions}>
        {revocable && (
          <Confirm
            label="Revoke access"
            danger
            question={`${
              seat
                ? `@${seat} loses the repository: the invitation is withdrawn or the collaborator removed. The buyer can no longer download the code, nor ask for access again, until you grant it.`
                : 'The buyer can no longer download the code, nor ask for an invitation, until you grant access again. Download links already made stop working.'
            }${keptBy}`}
            disabled={busy}
            onConfirm={() =>
              void run(
                () => api.revoke(sessionId),
                seat ? `Access revoked for @${seat}.` : 'Access revoked: the buyer can no longer download the code.',
                reload,
              )
            }
          />
        )}
        {expired.map((grant) => {
          const name = extraName(grant.key);
          return (
            <Confirm
              key={grant.key}
              label={name === null ? 'Resend invitation' : `Resend ${name} invitation`}
              question={`A fresh invitation to ${grant.repository ?? 'the repository'} goes to @${grant.username}, in place of the one GitHub no longer honours.`}
              disabled={busy}
              onConfirm={() =>
                void run(
                  () => api.resend(sessionId, grant.key),
                  `Invitation${name === null ? '' : ` to ${name}`} resent to @${grant.username}.`,
                  reload,
                )
              }
            />
          );
        })}
        {access && access.usernameChanges > 0 && (
          <Confirm
            label="Reset username changes"
            question={`The purchase has moved its seat to another account ${times(access.usernameChanges)}; it may move it again as if it never had.`}
            disabled={busy}
            onConfirm={() => void run(() => api.resetUsernameChanges(sessionId), 'Username changes reset.', reload)}
          />
        )}
      </div>
      {busy && <Spinner label="Sending" />}
      <ActionResult outcome={outcome} />
    </section>
  );
}

/** One purchase: what it is, its access with the actions on it, and everything that happened to it. */
export default function PurchaseDetail({sessionId}: {sessionId: string}) {
  const loaded = useAdminData(useCallback((api: AdminApi) => api.purchase(sessionId), [sessionId]));
  return (
    <section className={styles.panel} aria-labelledby="purchase-heading">
      <Link to={adminHref({view: 'purchases'})} className={styles.back}>
        ← All purchases
      </Link>
      <h2 id="purchase-heading">Purchase</h2>
      <ShowLoaded loaded={loaded} label="Loading the purchase">
        {(purchase) => (
          <>
            <dl className={styles.facts}>
              <dt>Buyer</dt>
              <dd>{purchase.email ?? '—'}</dd>
              <dt>Date</dt>
              <dd>{when(purchase.createdAt)}</dd>
              <dt>Plan</dt>
              <dd>{purchase.plan ?? '—'}</dd>
              {purchase.seats > 1 && (
                <>
                  <dt>Seats</dt>
                  <dd>{purchase.seats}</dd>
                </>
              )}
              <dt>Amount</dt>
              <dd>
                {money(purchase.amount, purchase.currency)}
                {purchase.amountRefunded > 0 && <> · {money(purchase.amountRefunded, purchase.currency)} refunded</>}
              </dd>
              {purchase.launchCode && (
                <>
                  <dt>Launch code</dt>
                  <dd className={styles.code}>{purchase.launchCode}</dd>
                </>
              )}
              {purchase.referredBy && (
                <>
                  <dt>Referred by</dt>
                  <dd>
                    The affiliate <span className={styles.code}>{purchase.referredBy}</span>
                  </dd>
                </>
              )}
              <dt>State</dt>
              <dd>
                <StateBadge state={purchase.state} />
                <CardCountryBadge fairPrice={purchase.fairPrice} />
                <CardCountryBadge fairPrice={purchase.flaggedUpgrade} upgrade />
              </dd>
              <dt>GitHub access</dt>
              <dd>
                <AccessBadge purchase={purchase} />
                {purchase.access && purchase.access.usernameChanges > 0 && (
                  <> · the buyer moved it to another GitHub account {times(purchase.access.usernameChanges)}</>
                )}
              </dd>
              {purchase.grants.map((grant) => (
                <React.Fragment key={grant.key}>
                  <dt>{repositoryLabel(grant.key)}</dt>
                  <dd>
                    {grantWords(grant)}
                    {grant.repository && <> · {grant.repository}</>}
                    {grant.username && <> · @{grant.username}</>}
                    {grant.detail && <> · {grant.detail}</>}
                  </dd>
                </React.Fragment>
              ))}
              <dt>Payment</dt>
              <dd>
                {purchase.stripeUrl ? (
                  <a href={purchase.stripeUrl} target="_blank" rel="noreferrer">
                    Open in Stripe<span className="sr-only"> (opens a new tab)</span>
                  </a>
                ) : (
                  '—'
                )}
              </dd>
              <dt>Bought</dt>
              <dd>{purchase.userId ? 'Signed in' : 'As a guest (no account yet)'}</dd>
            </dl>
            {/* For a search in Stripe or a support thread, not for reading. */}
            <details className={styles.numbers}>
              <summary>Reference numbers</summary>
              <dl className={styles.facts}>
                <dt>Checkout session</dt>
                <dd className={styles.code}>{purchase.sessionId}</dd>
                <dt>Stripe customer</dt>
                <dd className={styles.code}>{purchase.customerId ?? '—'}</dd>
                <dt>Sign-in account</dt>
                <dd className={styles.code}>{purchase.userId ?? '—'}</dd>
              </dl>
            </details>
            {/* One action's sentence at a time: the last one's, so none stands beside what a later one changed. */}
            <ActionScope>
              <CardCountryReview sessionId={purchase.sessionId} fairPrice={purchase.fairPrice} reload={loaded.reload} />
              <AccessActions purchase={purchase} reload={loaded.reload} />
              <Refund purchase={purchase} reload={loaded.reload} />
              <Upgrades purchase={purchase} reload={loaded.reload} />
              {(purchase.seats > 1 || purchase.members.length > 0) && (
                <Team purchase={purchase} reload={loaded.reload} />
              )}
            </ActionScope>
            <section aria-labelledby="history-heading">
              <h3 id="history-heading">History</h3>
              <History events={purchase.history} />
            </section>
          </>
        )}
      </ShowLoaded>
    </section>
  );
}
