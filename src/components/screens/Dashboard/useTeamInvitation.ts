import {useEffect, useState} from 'react';
import {TEAM_LINK_FRAGMENT} from '../../../config';
import {ApiError} from '../../../lib/api';
import type {AuthUser} from '../../../lib/auth/types';
import {useApiClient} from '../../../lib/useApiClient';

/** Where the link's secret waits while its member signs in (the sign-in page leaves the dashboard). */
const KEPT = 'team-invitation';

/**
 * A member's e-mailed link (`/dashboard#team-invitation=…`): its secret is taken out of the
 * address bar at once (kept in this tab's sessionStorage across the sign-in), and once the member
 * is signed in the seat is taken (POST /joinTeam). Answers what happened, for the dashboard to say:
 * null with no link, 'joining', 'joined', or the worker's refusal in its words.
 */
export function useTeamInvitation(user: AuthUser | null, onJoined: () => void): string | null {
  const api = useApiClient();
  const [outcome, setOutcome] = useState<string | null>(null);

  useEffect(() => {
    const token = user && sessionStorage.getItem(KEPT);
    if (!token) return;
    setOutcome('joining');
    api
      .joinTeam(token)
      .then(() => {
        sessionStorage.removeItem(KEPT);
        setOutcome('joined');
        onJoined();
      })
      .catch((error: unknown) => {
        console.error('Joining the team failed:', error);
        // A refusal is for good (another address, used, expired): the link is spent here.
        if (error instanceof ApiError && error.status < 500) sessionStorage.removeItem(KEPT);
        setOutcome(error instanceof ApiError ? error.message : 'Joining the team failed. Open the link again.');
      });
  }, [api, user, onJoined]);

  return outcome;
}

/**
 * Keeps a member's link found in the address bar, in the dashboard's first render, before any
 * effect: the sign-in guard may leave the page in its own.
 */
export function useTeamLinkKept(): void {
  useState(keepLinkFromAddress);
}

/** Moves a link's secret from the address bar to this tab's sessionStorage, once. */
function keepLinkFromAddress(): null {
  if (typeof window === 'undefined') return null;
  const match = new RegExp(`^#${TEAM_LINK_FRAGMENT}=([A-Za-z0-9_-]+)$`).exec(window.location.hash);
  if (!match) return null;
  sessionStorage.setItem(KEPT, match[1]!);
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return null;
}
