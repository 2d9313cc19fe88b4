import React, {useCallback, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {
  afterPurchase,
  appConfig,
  checkoutPriceId,
  codeIncludes,
  dashboardPlan,
  findStoredPlan,
  hasEnded,
  memberOfTeam,
  ROUTES,
  seatEndedWords,
  type SeatEndReason,
  standingNotes,
} from '../../../config';
import type {AccessStatus} from '../../../config/api';
import {guaranteeWords} from '../../../config/guarantee';
import {useAuth} from '../../../lib/auth/AuthContext';
import {rememberBuyer} from '../../../lib/auth/buyerHint';
import type {AuthUser} from '../../../lib/auth/types';
import {useApiClient} from '../../../lib/useApiClient';
import {accountName} from '../../shared/ButtonAccount';
import Pricing from '../../landing/Pricing';
import ButtonCheckout from '../../shared/ButtonCheckout';
import RequireAuth from '../../layout/RequireAuth';
import Spinner from '../../shared/Spinner';
import AccessStatusPanel from './AccessStatusPanel';
import BillingPortalButton from './BillingPortalButton';
import OwnRefund, {refundedPurchase} from './OwnRefund';
import DownloadCode from './DownloadCode';
import EndedPurchase from './EndedPurchase';
import Receipts from './Receipts';
import RequestAccess from './RequestAccess';
import TeamPanel from './TeamPanel';
import {useTeamInvitation, useTeamLinkKept} from './useTeamInvitation';
import WhatsNew from './WhatsNew';
import YourPlan from './YourPlan';
import {useCheckoutSignIn} from './useCheckoutSignIn';
import styles from './styles.module.css';

const plan = dashboardPlan();

/** The dashboard of a signed-in user, as the worker says their purchase stands. */
export function SignedInDashboard({user}: {user: AuthUser}) {
  const api = useApiClient();
  // null while loading; 'unknown' when the worker could not say (the form still works: it checks).
  const [access, setAccess] = useState<AccessStatus | 'unknown' | null>(null);
  // The release a download serves, as What's new's answer names it.
  const [latestTag, setLatestTag] = useState<string | null>(null);

  const refresh = useCallback(() => {
    api
      .accessStatus()
      .then(setAccess)
      .catch((error: unknown) => {
        console.error('Reading the access status failed:', error);
        setAccess('unknown');
      });
  }, [api]);
  const known = access === null || access === 'unknown' ? null : access;
  useEffect(refresh, [refresh]);
  // The header offers a buyer the dashboard instead of the buy button (display only).
  useEffect(() => {
    if (known) rememberBuyer(user.uid, known.hasPaid);
  }, [known, user.uid]);
  const joining = useTeamInvitation(user, refresh);
  // A link refused (another address, used, expired): said above whatever the account's page is.
  const joinRefused = joining !== null && joining !== 'joining' && joining !== 'joined' ? joining : null;
  const refusal = joinRefused && (
    <p className={styles.note} role="alert">
      {joinRefused}
    </p>
  );

  if (known && !known.hasPaid && (joining === null || joinRefused)) {
    // Bought, then refunded or disputed: told so, with the date and what it means, never "not bought".
    // A member removed from a team: told so, never "not bought" either.
    return (
      <>
        {refusal}
        {known.teamEnded ? (
          <SeatEnded owner={known.teamEnded.owner} reason={known.teamEnded.reason} />
        ) : hasEnded(known.payment) ? (
          <EndedPurchase access={known} payment={known.payment} />
        ) : (
          <NotABuyer user={user} />
        )}
      </>
    );
  }
  // A member's plan is the team's; their payment is the owner's, never shown to them.
  const member = known?.team;
  const heldPlan = findStoredPlan((member?.plan ?? known?.plan)?.id ?? null);
  const notes = [
    ...(member ? [memberOfTeam(member.owner, member.plan.name)] : []),
    ...(known ? standingNotes(known.payment, known.otherEnded) : []),
  ];

  return (
    <div className={styles.dashboard}>
      <h1 className={styles.title}>Welcome, {accountName(user)}</h1>
      <p className={styles.welcome}>
        Thank you for choosing {appConfig.appName}.{' '}
        {appConfig.repository.downloads
          ? 'Download the code now, and enter your GitHub username'
          : 'Enter your GitHub username'}{' '}
        to be invited to the private repository, then follow the documentation to ship your app.
      </p>
      {joining === 'joining' && <Spinner label="Taking your seat of the team" />}
      {refusal}
      {notes.map((note) => (
        <p key={note} className={styles.note} role="note">
          {note}
        </p>
      ))}

      <section className={styles.card} aria-labelledby="access-heading">
        <h2 id="access-heading">Get the code</h2>
        {heldPlan && <p className={styles.muted}>{codeIncludes(heldPlan)}</p>}
        {access === null ? (
          <Spinner label="Loading your access" />
        ) : (
          <>
            {known?.hasPaid && !known.revokedBySeller && appConfig.repository.downloads && (
              <DownloadCode latestTag={latestTag} />
            )}
            {known && <AccessStatusPanel access={known} onChanged={refresh} />}
            {/* Only the seller can give back access they revoked: the panel says whom to write to. */}
            {!known?.revokedBySeller && (
              <RequestAccess user={user} initialUsername={known?.username} onRequested={refresh} />
            )}
          </>
        )}
        <ol className={styles.steps}>
          {afterPurchase.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <div className={styles.links}>
          {known?.repositoryUrl && (
            <a className={styles.link} href={known.repositoryUrl} target="_blank" rel="noopener noreferrer">
              Repository
            </a>
          )}
          <Link className={styles.link} to={ROUTES.docs}>
            Documentation
          </Link>
        </div>
      </section>

      {known?.seats !== undefined && <TeamPanel seats={known.seats} />}
      {/* A member's plan, receipts and billing are the team owner's. */}
      {known?.hasPaid && !member && <YourPlan />}
      {known?.hasPaid && <WhatsNew onLatestTag={setLatestTag} />}
      {known?.hasPaid && !member && <Receipts />}

      {!member && (
        <section className={styles.card} aria-labelledby="billing-heading">
          <h2 id="billing-heading">Billing</h2>
          {known?.hasPaid ? (
            <>
              <p>Invoices, receipts and your billing details are in Stripe's billing portal.</p>
              <BillingPortalButton />
              {known.withdrawableUntil !== undefined && (
                <OwnRefund
                  kind="withdrawal"
                  until={known.withdrawableUntil}
                  endsOnDelivery={known.withdrawalEndsOnDelivery}
                  purchase={refundedPurchase(known.payment, user.email)}
                  onRefunded={refresh}
                />
              )}
              {known.refundableUntil !== undefined ? (
                <OwnRefund
                  kind="guarantee"
                  until={known.refundableUntil}
                  purchase={refundedPurchase(known.payment, user.email)}
                  onRefunded={refresh}
                />
              ) : (
                appConfig.support.email && <p>{guaranteeWords.bySupport(appConfig.support.email)}</p>
              )}
            </>
          ) : (
            <>
              <p>
                {appConfig.appName} {plan.name}: ${plan.price}, paid once, yours forever.
              </p>
              <ButtonCheckout priceId={checkoutPriceId(plan)} label={`Get ${appConfig.appName} ${plan.name}`} />
            </>
          )}
        </section>
      )}
    </div>
  );
}

/** A member whose seat the team's owner took back: said so, and the plans to buy their own. */
function SeatEnded({owner, reason}: {owner: string; reason: SeatEndReason}) {
  const words = seatEndedWords(owner, reason);
  return (
    <>
      <div className={styles.dashboard}>
        <h1 className={styles.title}>{words.title}</h1>
        <section className={styles.status} data-status="revoked" aria-label={words.title}>
          <p>{words.text}</p>
        </section>
      </div>
      <Pricing />
    </>
  );
}

/**
 * Signed in with an account that has not bought (the worker says so): no repository, no welcome
 * as a buyer, but the plans. A buyer who paid with another e-mail is told where the purchase is.
 */
function NotABuyer({user}: {user: AuthUser}) {
  return (
    <>
      <div className={styles.dashboard}>
        <h1 className={styles.title}>You have not bought {appConfig.appName} yet</h1>
        <p className={styles.welcome}>
          You are signed in as <strong>{user.email ?? accountName(user)}</strong>, and this account has no purchase.
          Choose a plan: once paid, you come back here to get the code. Bought with another e-mail? Sign out and sign in
          with that one.
        </p>
      </div>
      <Pricing />
    </>
  );
}

/** The buyer's dashboard (§2, §4): the checkout sign-in first, then the guard, then the page. */
export default function Dashboard() {
  useTeamLinkKept();
  const exchanging = useCheckoutSignIn();
  const {user} = useAuth();
  return <RequireAuth pending={exchanging}>{user && <SignedInDashboard user={user} />}</RequireAuth>;
}
