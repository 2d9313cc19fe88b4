import React, {useEffect} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {appConfig} from '../../../config';
import {useAuthClient} from '../../../lib/auth/AuthContext';
import ButtonAccount, {accountName} from '../ButtonAccount';
import UserAvatar from '../UserAvatar';
import styles from './styles.module.css';

export interface ButtonSigninProps {
  /** The visitor's label; the link goes to the login page. */
  label?: string;
  /** `text` draws the visitor's link as plain text, as in the header; the account keeps its chip. */
  variant?: 'button' | 'text';
  className?: string;
}

/**
 * "Login" for a visitor, a link to the dashboard with the avatar and name for a signed-in user
 * (on the dashboard itself, the account menu with Logout).
 * A visitor's browser loads no auth SDK: only a browser that has been signed in asks the provider.
 * In that browser the visitor's link stays hidden (the signed-in hint on <html>, from the first
 * script of the page) until the provider answers, so a signed-in user never sees "Login" flash.
 */
export default function ButtonSignin({label = 'Login', variant = 'button', className}: ButtonSigninProps) {
  // The user as far as sign-in has started on this page: it follows a sign-in or a sign-out live.
  const {ready, user, userIfSignedIn} = useAuthClient();
  const {pathname} = useLocation();

  useEffect(() => {
    // Starts sign-in only in a browser that has been signed in; a visitor's answer is null at once.
    userIfSignedIn().catch(() => undefined);
  }, [userIfSignedIn]);

  if (!ready || !user) {
    return (
      <Link
        to={appConfig.auth.loginUrl}
        className={clsx(variant === 'button' ? styles.button : styles.text, styles.visitor, className)}>
        {label}
      </Link>
    );
  }

  if (pathname.replace(/\/+$/, '') === appConfig.auth.callbackUrl) {
    // On the dashboard a link to it would lead nowhere: the account's menu (Logout) is here instead,
    // and the page shows no second one.
    return <ButtonAccount />;
  }
  const name = accountName(user);
  return (
    <Link to={appConfig.auth.callbackUrl} className={clsx(styles.button, styles.signedIn, className)}>
      <UserAvatar photoURL={user.photoURL} name={name} size={24} />
      <span>{name}</span>
    </Link>
  );
}
