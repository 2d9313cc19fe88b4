import React, {useEffect, useId, useRef, useState} from 'react';
import {useHistory} from '@docusaurus/router';
import {useAuth} from '../../lib/auth/AuthContext';
import type {AuthUser} from '../../lib/auth/types';
import styles from './styles.module.css';

/** The name on the button (§2): the display name, else the e-mail's local part, else "Account". */
export function accountName(user: Pick<AuthUser, 'displayName' | 'email'>): string {
  const displayName = user.displayName?.trim();
  if (displayName) return displayName;
  const local = user.email?.split('@')[0]?.trim();
  return local || 'Account';
}

/** The signed-in user's button with a Logout popover; nothing at all when signed out. */
export default function ButtonAccount() {
  const {ready, user, client} = useAuth();
  const history = useHistory();
  const [open, setOpen] = useState(false);
  const [brokenAvatar, setBrokenAvatar] = useState(false);
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

  if (!ready || !user) return null;
  const name = accountName(user);

  async function logout() {
    try {
      await (await client()).signOut();
      history.push('/');
    } catch (error) {
      console.error('Logout failed:', error);
    }
  }

  return (
    <div className={styles.account} ref={root}>
      <button
        type="button"
        className={styles.button}
        aria-expanded={open}
        aria-controls={popoverId}
        onClick={() => setOpen((value) => !value)}>
        {user.photoURL && !brokenAvatar ? (
          <img
            src={user.photoURL}
            alt=""
            width={28}
            height={28}
            className={styles.avatar}
            referrerPolicy="no-referrer"
            onError={() => setBrokenAvatar(true)}
          />
        ) : (
          <span className={styles.initial} aria-hidden="true">
            {name.charAt(0).toUpperCase()}
          </span>
        )}
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
