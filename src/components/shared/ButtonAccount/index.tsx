import React, {useEffect, useId, useRef, useState} from 'react';
import {useHistory} from '@docusaurus/router';
import {useAuth} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import UserAvatar from '../UserAvatar';
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
}

/** The signed-in user's button with a Logout popover; nothing at all when signed out. */
export default function ButtonAccount({user}: ButtonAccountProps) {
  return user ? <AccountMenu user={user} /> : <SignedInAccount />;
}

function SignedInAccount() {
  const {ready, user, client} = useAuth();
  const history = useHistory();
  if (!ready || !user) return null;

  async function logout() {
    try {
      await (await client()).signOut();
      history.push('/');
    } catch (error) {
      console.error('Logout failed:', error);
    }
  }

  return <AccountMenu user={user} onLogout={logout} />;
}

function AccountMenu({user, onLogout}: {user: AuthUser; onLogout?: () => Promise<void>}) {
  const [open, setOpen] = useState(false);
  const popoverId = useId();
  const root = useRef<HTMLDivElement>(null);

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
    <div className={styles.account} ref={root}>
      <button
        type="button"
        className={styles.button}
        aria-expanded={open}
        aria-controls={popoverId}
        onClick={() => setOpen((value) => !value)}>
        <UserAvatar photoURL={user.photoURL} name={name} size={28} />
        <span>{name}</span>
        <svg width="12" height="12" viewBox="0 0 20 20" aria-hidden="true" className={open ? styles.chevronOpen : styles.chevron}>
          <path d="M5 8l5 5 5-5" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <div id={popoverId} className={styles.popover}>
          <button type="button" className={styles.logout} onClick={logout}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
