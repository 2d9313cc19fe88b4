import React, {useState} from 'react';
import type {AdminMember} from '../../../config/api';
import {useAdminApi} from '../../../lib/useAdminApi';
import Confirm from './Confirm';
import Field from './Field';
import {adminMemberName} from './shownMember';
import type {useAction} from './useAction';
import styles from './styles.module.css';

/**
 * The seller's actions on one member who holds a seat (the worker names them by their record, and
 * refuses one who no longer holds it): move a joined member's seat to another GitHub account, and
 * take the seat back (an invitation not taken yet is withdrawn). Each is confirmed in the page.
 */
export default function MemberActions({
  sessionId,
  member,
  movable,
  action: {busy, run},
  reload,
}: {
  sessionId: string;
  member: AdminMember;
  /** Whether the seat may move: not while the seller's revocation of the purchase stands. */
  movable: boolean;
  action: ReturnType<typeof useAction>;
  reload: () => void;
}) {
  const api = useAdminApi();
  const [username, setUsername] = useState('');
  const wanted = username.trim().replace(/^@/, '');
  const name = adminMemberName(member);
  const invited = member.state === 'invited';
  return (
    <>
      {!invited && movable && (
        <div className={styles.grant}>
          <Field
            id={`move-member-${member.id}`}
            label={`Move ${name}'s seat to the GitHub account`}
            value={username}
            onChange={setUsername}
            maxLength={40}>
            <Confirm
              label="Move seat"
              question={`@${wanted} is invited to the repository for seat ${member.seat}${member.username ? `, and @${member.username} loses it once the invitation is sent` : ''}. It does not count against the member's own changes of account.`}
              disabled={busy || !wanted}
              onConfirm={() =>
                void run(
                  () => api.grant(sessionId, wanted, member.id),
                  `Seat ${member.seat} moved to @${wanted}.`,
                  () => {
                    setUsername('');
                    reload();
                  },
                )
              }
            />
          </Field>
        </div>
      )}
      <div className={styles.actions}>
        <Confirm
          label={invited ? `Withdraw ${name}'s invitation` : `Take back ${name}'s seat`}
          danger
          question={
            invited
              ? `The link sent to ${name} stops working, and the seat is free again for the buyer to give. The buyer is e-mailed.`
              : `${name} loses the repository and their download links, and the seat is free again for the buyer to give. The buyer is e-mailed, and so is the member if they joined by e-mail.`
          }
          disabled={busy}
          onConfirm={() =>
            void run(
              () => api.takeBackMember(sessionId, member.id),
              invited ? `Invitation to ${name} withdrawn.` : `${name}'s seat taken back.`,
              reload,
            )
          }
        />
      </div>
    </>
  );
}
