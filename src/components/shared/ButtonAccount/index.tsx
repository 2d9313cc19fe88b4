import clsx from 'clsx';
import React, {useCallback, useEffect, useId, useRef, useState} from 'react';
import Link from '@docusaurus/Link';
import {useHistory} from '@docusaurus/router';
import {ROUTES} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import {useApiClient} from '../../../lib/useApiClient';
import UserAvatar from '../UserAvatar';
import {adminAnswer} from './adminAnswer';
import styles from './styles.module.css';

/** The name on the button (§2): the display name, else the e-mail's local part, else "Account". */
export function accountName(user: Pick<AuthUser, 'displayName' | 'email'>): string {
  const displayName = user.displayName?.trim();
  if (displayName) return displayName;
  const local = user.email?.split('@')[0]?.trim();
  return local || 'Account';
}

export interface ButtonAccountProps {
  /**
   * A user to show in place of the signed-in one, for a preview (the docs): no auth SDK loads,
   * and Logout only closes the popover. Leave it out everywhere else.
   */
  user?: AuthUser;
  /** False in the console itself, where its link would lead to the page the seller is on. */
  consoleLink?: boolean;
  /** The frame's own placement of the button and its popover (the console's sidebar). */
  className?: string;
}

/**
 * The signed-in user's button with a Logout popover (and, for the seller, a link to the console);
 * nothing at all when signed out.
 */
export default function ButtonAccount({user, consoleLink = true, className}: ButtonAccountProps) {
  return user ? (
    <AccountMenu user={user} className={className} />
  ) : (
    <SignedInAccount consoleLink={consoleLink} className={className} />
  );
}

function SignedInAccount({consoleLink, className}: {consoleLink: boolean; className?: string}) {
  const {ready, user, client} = useAuth();
  const history = useHistory();
  const api = useApiClient();
  const uid = user?.uid;
  // The worker decides, for this account's own token: the admins' e-mails never reach the browser.
  const isAdmin = useCallback(() => adminAnswer(uid ?? '', () => api.isAdmin()), [api, uid]);
  if (!ready || !user) return null;

  async function logout() {
    try {
      await (await client()).signOut();
      history.push('/');
    } catch (error) {
      console.error('Logout failed:', error);
    }
  }

  // Keyed by account: another account signed in here starts with no link until the worker answers.
  return (
    <AccountMenu
      key={user.uid}
      user={user}
      onLogout={logout}
      isAdmin={consoleLink ? isAdmin : undefined}
      className={className}
    />
  );
}

interface AccountMenuProps {
  user: AuthUser;
  onLogout?: () => Promise<void>;
  /** Asked when the menu opens: the link to the console shows only on a plain yes. */
  isAdmin?: () => Promise<boolean>;
  className?: string;
}

function AccountMenu({user, onLogout, isAdmin, className}: AccountMenuProps) {
  const [open, setOpen] = useState(false);
  const [admin, setAdmin] = useState(false);
  const popoverId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open || !isAdmin) return undefined;
    let current = true;
    // Fail closed: a refusal, an error or no answer shows no link.
    isAdmin().then(
      (yes) => current && setAdmin(yes === true),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [open, isAdmin]);

  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const name = accountName(user);
  const logout = onLogout ?? (async () => setOpen(false));

  return (
    <div className={clsx(styles.account, className)} ref={root}>
      <button
        type="button"
        className={styles.button}
        aria-expanded={open}
        aria-controls={popoverId}
        onClick={() => setOpen((value) => !value)}>
        <UserAvatar photoURL={user.photoURL} name={name} size={28} />
        <span>{name}</span>
        <svg
          width="12"
          height="12"
          viewBox="0 0 20 20"
          aria-hidden="true"
          className={open ? styles.chevronOpen : styles.chevron}>
          <path d="M5 8l5 5 5-5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <div id={popoverId} className={styles.popover}>
          {admin && (
            <Link to={ROUTES.admin} className={styles.item} onClick={() => setOpen(false)}>
              Seller console
            </Link>
          )}
          <button type="button" className={styles.item} onClick={logout}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
