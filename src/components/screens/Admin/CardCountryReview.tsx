import React from 'react';
import {countryName} from '../../../config';
import type {AdminFairPrice} from '../../../config/api';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import Confirm from './Confirm';
import {ActionResult, useAction} from './useAction';
import styles from './styles.module.css';

const named = (country: string) => `${countryName(country)} (${country})`;

/**
 * What the card that paid says, in a sentence: its country, or why none is known. Flagged with no
 * country at all: the worker gave up asking Stripe (the `card-country` job failed).
 */
function cardLine(cardCountry: string | null, flagged: boolean): string {
  if (cardCountry === null && flagged)
    return `Stripe never answered when asked where the card is from. Retry its "Card's country" job under Failures once Stripe answers, or decide without it.`;
  if (cardCountry === null) return 'Stripe has not said yet where the card is from.';
  if (cardCountry === '')
    return 'It was paid by a method that tells no country (not a card), so the price could not be checked against it.';
  return `The card that paid is from ${named(cardCountry)}.`;
}

/** What was paid at a fair price: the purchase itself, or one of its upgrades (its own payment). */
type Payment = 'purchase' | 'upgrade';

/**
 * A purchase, or an upgrade, made at a fair price: which country's price it got, and where the card
 * that paid is from. A card from elsewhere is flagged: the seller accepts it here (the flag clears,
 * and the admin log says who) or refunds it with the refund form below. An upgrade's review sits
 * under the upgrade's own heading (so an h5), and accepts by the upgrade's session.
 */
export default function CardCountryReview({
  sessionId,
  fairPrice,
  reload,
  payment = 'purchase',
}: {
  sessionId: string;
  fairPrice: AdminFairPrice | null;
  reload: () => void;
  payment?: Payment;
}) {
  const api = useAdminApi();
  const {busy, outcome, run} = useAction();
  if (!fairPrice) return null;
  const flagged = fairPrice.review === 'flagged';
  const headingId = `fair-price-heading-${sessionId}`;
  const Heading = payment === 'purchase' ? 'h3' : 'h5';
  return (
    <section aria-labelledby={headingId}>
      <Heading id={headingId}>{payment === 'purchase' ? 'Fair price' : "Fair price of the upgrade's payment"}</Heading>
      <p>
        Priced for {named(fairPrice.country)}
        {fairPrice.percentOff !== null && <>: {fairPrice.percentOff}% off</>}.{' '}
        {cardLine(fairPrice.cardCountry, flagged)}
      </p>
      {flagged && (
        <>
          <p className={styles.muted}>
            {fairPrice.cardCountry === '' || fairPrice.cardCountry === null
              ? `Nothing shows the buyer is in the country of the price. Accept the ${payment} as it is, or refund it below.`
              : `The card is from another country than the price. A traveller, a VPN or a card from a bank abroad can explain it; accept the ${payment} as it is, or refund it below.`}
          </p>
          <div className={styles.actions}>
            <Confirm
              label="Accept"
              question={`The ${payment} keeps its price and the flag clears; the admin log records it.`}
              disabled={busy}
              onConfirm={() =>
                void run(() => api.acceptCardCountry(sessionId), 'Accepted: the flag is cleared.', reload)
              }
            />
          </div>
        </>
      )}
      {fairPrice.review === 'accepted' && (
        <p className={styles.muted}>Accepted by an admin despite the card's country.</p>
      )}
      {busy && <Spinner label="Sending" />}
      <ActionResult outcome={outcome} />
    </section>
  );
}
