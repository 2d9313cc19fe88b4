import React, {useId, useState} from 'react';
import {findStoredPlan, seatRefundAmount, seatsKeptWords} from '../../../config';
import type {AdminMember, AdminPurchaseDetail, RefundReason} from '../../../config/api';
import {PLAN_CURRENCY} from '../../../config/plans';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import Confirm from './Confirm';
import {money} from './format';
import {ReasonSelect} from './RefundForm';
import {adminMemberName} from './shownMember';
import {ActionResult, useAction} from './useAction';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

const seatsWord = (count: number) => (count === 1 ? '1 seat' : `${count} seats`);

/**
 * Some of a team's seats refunded (worker/src/team/seatRefund.ts): the worker prices them at what the
 * purchase paid for each; the seller picks whose seats end (those the owner named), else the newest
 * go. The sum shown is the worker's own figure per seat, times the seats.
 */
export default function SeatRefund({
  purchase,
  held,
  reload,
}: {
  purchase: AdminPurchaseDetail & {seatRefund: NonNullable<AdminPurchaseDetail['seatRefund']>};
  /** The members holding a seat now, the newest first. */
  held: AdminMember[];
  reload: () => void;
}) {
  const api = useAdminApi();
  const id = useId();
  const {busy, outcome, run} = useAction();
  const {most, keeps, paid, bought, refunded, held: taken} = purchase.seatRefund;
  const perSeat = seatRefundAmount(paid, bought, 1);
  const kept = seatsKeptWords(keeps, findStoredPlan(purchase.plan));
  const currency = purchase.currency ?? PLAN_CURRENCY;
  const [seats, setSeats] = useState(1);
  const [picked, setPicked] = useState<number[]>([]);
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  if (most === 0) {
    // The refund that took the last seat leaves this: its sentence stays beside it.
    return (
      <div>
        <p className={styles.muted}>
          {`${refunded > 0 ? `${seatsWord(refunded)} refunded. ` : ''}No seat can be refunded by itself (${kept}). Refund the whole purchase to end it.`}
        </p>
        <ActionResult outcome={outcome} />
      </div>
    );
  }
  // As the worker counts (its own count of seats taken, a seat whose take-back is stuck included):
  // as many members as are past the seats left lose theirs, at most those there are.
  const mustGo = Math.min(held.length, Math.max(0, taken - (purchase.seats - seats - 1)));
  // Members by their own record (`id`): a seat's number may change hands while the page is open.
  const chosen = picked.filter((id) => held.some((member) => member.id === id)).slice(0, mustGo);
  const chosenSeats = held.filter((member) => chosen.includes(member.id)).map((member) => member.seat);
  const newest = mustGo - chosen.length;
  const amount = seatRefundAmount(paid, bought, seats);
  const losing =
    mustGo === 0
      ? 'no member loses a seat'
      : `${mustGo === 1 ? '1 member loses their seat' : `${mustGo} members lose theirs`} (${[
          ...(chosenSeats.length > 0 ? [`seat ${chosenSeats.join(', ')}`] : []),
          ...(newest > 0 ? [`the newest ${newest === 1 ? 'one' : newest}`] : []),
        ].join(', then ')}), each told why by e-mail`;
  return (
    <div>
      <h4>Refund seats</h4>
      <p className={styles.muted}>
        {`${money(perSeat, currency)} a seat, the purchase's amount over the seats it bought; up to ${seatsWord(most)} (${kept})${
          refunded > 0 ? `, ${seatsWord(refunded)} refunded so far` : ''
        }. Seats added later are refunded from their own row.`}
      </p>
      <div className={styles.refund}>
        <div>
          <label htmlFor={`${id}-seats`}>Seats to refund</label>
          <select
            id={`${id}-seats`}
            className={controls.input}
            value={seats}
            onChange={(event) => setSeats(Number(event.target.value))}>
            {Array.from({length: most}, (_, index) => index + 1).map((count) => (
              <option key={count} value={count}>
                {`${seatsWord(count)}: ${money(seatRefundAmount(paid, bought, count), currency)}`}
              </option>
            ))}
          </select>
        </div>
        <ReasonSelect id={`${id}-reason`} reason={reason} onChange={setReason} />
      </div>
      {mustGo > 0 && (
        <fieldset className={styles.pick}>
          <legend>{`Who loses a seat: pick up to ${mustGo} the owner named, or the newest go`}</legend>
          {held.map((member) => (
            <label key={member.id}>
              <input
                type="checkbox"
                checked={chosen.includes(member.id)}
                disabled={!chosen.includes(member.id) && chosen.length >= mustGo}
                onChange={(event) =>
                  setPicked((now) =>
                    event.target.checked ? [...now, member.id] : now.filter((id) => id !== member.id),
                  )
                }
              />{' '}
              {`${adminMemberName(member)} (seat ${member.seat})`}
            </label>
          ))}
        </fieldset>
      )}
      <div className={styles.actions}>
        <Confirm
          label="Refund seats"
          danger
          disabled={busy}
          question={`${money(amount, currency)} goes back to the buyer through Stripe for ${seatsWord(seats)}; the team keeps ${seatsWord(purchase.seats - seats)}, and ${losing}.`}
          onConfirm={() => {
            void run(
              () =>
                api.refund(purchase.sessionId, {
                  seats,
                  reason,
                  refundedBefore: purchase.amountRefunded,
                  ...(chosen.length > 0 && {members: chosen}),
                }),
              `Refunded ${seatsWord(seats)}.`,
              () => {
                setSeats(1);
                setPicked([]);
                reload();
              },
            );
          }}
        />
      </div>
      {busy && <Spinner label="Refunding seats" />}
      <ActionResult outcome={outcome} />
    </div>
  );
}
