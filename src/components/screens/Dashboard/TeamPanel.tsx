import React, {useCallback, useEffect, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {memberName, memberStateWords, TEAM_LINK_DAYS} from '../../../config';
import type {Team, TeamMember} from '../../../config/api';
import {ApiError} from '../../../lib/api';
import {useApiClient} from '../../../lib/useApiClient';
import Spinner from '../../shared/Spinner';
import styles from './styles.module.css';
import controls from '../../../css/controls.module.css';

/** What the owner typed: an e-mail address (a link goes to it) or a GitHub username (invited at once). */
function memberRequest(typed: string): {email: string} | {username: string} {
  const value = typed.trim().replace(/^@/, '');
  return value.includes('@') ? {email: value} : {username: value};
}

/**
 * "Your team", for the owner of a team purchase: seats used and free, each member with where their
 * access stands, a form to give a free seat (by e-mail or GitHub username), and each member's
 * Remove (or Withdraw, for an invitation) and, for an invitation, Send a new link.
 */
export default function TeamPanel({seats}: {seats: number}) {
  const api = useApiClient();
  const [team, setTeam] = useState<Team | null>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [answer, setAnswer] = useState<{kind: 'error' | 'done'; text: string} | null>(null);

  const load = useCallback(() => {
    api
      .team()
      .then(setTeam)
      .catch((error: unknown) => {
        console.error('Reading the team failed:', error);
        setAnswer({kind: 'error', text: error instanceof ApiError ? error.message : 'The team could not be read.'});
      });
  }, [api]);
  useEffect(load, [load]);

  /** Runs one of the owner's actions; `done` is what to say after it (or what the action answers to say). */
  async function act(label: string, action: () => Promise<unknown>, done?: string) {
    setBusy(label);
    setAnswer(null);
    try {
      const said = await action();
      setAnswer({kind: 'done', text: done ?? String(said)});
      load();
    } catch (error) {
      console.error(`${label} failed:`, error);
      setAnswer({kind: 'error', text: error instanceof ApiError ? error.message : 'That did not work. Try again.'});
    } finally {
      setBusy(null);
    }
  }

  function add(event: FormEvent) {
    event.preventDefault();
    if (!typed.trim()) {
      setAnswer({kind: 'error', text: "Enter your developer's e-mail address or GitHub username."});
      return;
    }
    const request = memberRequest(typed);
    void act('Give a seat', async () => {
      const added = await api.addTeamMember(request);
      setTyped('');
      if ('email' in request) return `A link went to ${request.email}: it works once, for ${TEAM_LINK_DAYS} days.`;
      return added.access === 'queued'
        ? `@${request.username} has a seat: the invitation waits for GitHub's daily limit and goes out in turn.`
        : `@${request.username} has a seat: GitHub e-mails them the invitation.`;
    });
  }

  const free = team?.free ?? 0;
  return (
    <section className={styles.card} aria-labelledby="team-heading">
      <h2 id="team-heading">Your team</h2>
      <p className={styles.muted}>
        {seats} seats: yours, and {seats - 1} for your developers.{team && ` ${free} free.`}
      </p>
      {team === null && answer === null && <Spinner label="Loading your team" />}
      {team && team.members.length > 0 && (
        <ul className={styles.members} aria-label="Members">
          {team.members.map((member) => (
            <MemberRow
              key={member.seat}
              member={member}
              busy={busy}
              onRemove={() =>
                act(
                  `Remove ${memberName(member)}`,
                  () => api.removeTeamMember(member.seat),
                  member.state === 'invited'
                    ? `The invitation to ${memberName(member)} was withdrawn.`
                    : `${memberName(member)} was removed, and their access taken back.`,
                )
              }
              onResend={() =>
                act(
                  `Send a new link to ${memberName(member)}`,
                  () => api.resendTeamInvitation(member.seat),
                  `A new link went to ${memberName(member)}; the old one no longer works.`,
                )
              }
            />
          ))}
        </ul>
      )}
      {free > 0 && (
        <form className={styles.request} onSubmit={add} noValidate aria-label="Give a seat">
          <label htmlFor="team-member" className={styles.label}>
            Developer's e-mail or GitHub username
          </label>
          <div className={styles.row}>
            <input
              id="team-member"
              name="member"
              className={clsx(controls.input, styles.input)}
              placeholder="dev@example.com or octocat"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={254}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
            <button type="submit" className={controls.primary} disabled={busy !== null} aria-busy={busy !== null}>
              {busy === 'Give a seat' && <Spinner label="Giving a seat" />}
              Give a seat
            </button>
          </div>
        </form>
      )}
      {answer?.kind === 'error' && (
        <p className={styles.error} role="alert">
          {answer.text}
        </p>
      )}
      <p className={styles.answer} role="status">
        {answer?.kind === 'done' ? answer.text : null}
      </p>
    </section>
  );
}

function MemberRow({
  member,
  busy,
  onRemove,
  onResend,
}: {
  member: TeamMember;
  busy: string | null;
  onRemove: () => void;
  onResend: () => void;
}) {
  const name = memberName(member);
  return (
    <li className={styles.member}>
      <div>
        <strong>{name}</strong>
        {member.username && member.email && <span className={styles.muted}> ({member.email})</span>}
        <p className={styles.muted}>{memberStateWords(member)}</p>
      </div>
      <div className={styles.row}>
        {member.state === 'invited' && (
          <button type="button" className={controls.secondary} disabled={busy !== null} onClick={onResend}>
            Send a new link<span className="sr-only"> to {name}</span>
          </button>
        )}
        <button type="button" className={controls.secondary} disabled={busy !== null} onClick={onRemove}>
          {member.state === 'invited' ? 'Withdraw' : 'Remove'}
          <span className="sr-only"> {name}</span>
        </button>
      </div>
    </li>
  );
}
