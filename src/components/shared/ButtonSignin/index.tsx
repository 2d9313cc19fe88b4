import React, {useEffect, useState} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {appConfig} from '../../../config';
import {useAuthClient} from '../../../lib/auth/AuthContext';
import type {AuthUser} from '../../../lib/auth/types';
import {accountName} from '../ButtonAccount';
import UserAvatar from '../UserAvatar';
import styles from './styles.module.css';

export interface ButtonSigninProps {
  /** The visitor's label; the link goes to the login page. */
  label?: string;
  className?: string;
}

/**
 * "Login" for a visitor, a link to the dashboard with the avatar and name for a signed-in user.
 * A visitor's browser loads no auth SDK: only a browser that has been signed in asks the provider.
 */
export default function ButtonSignin({label = 'Login', className}: ButtonSigninProps) {
  const {userIfSignedIn} = useAuthClient();
  const [user, setUser] = useState<AuthUser | null>(null);

  useEffect(() => {
    let current = true;
    userIfSignedIn()
      .then((signedIn) => current && setUser(signedIn))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [userIfSignedIn]);

  if (!user) {
    return (
      <Link to={appConfig.auth.loginUrl} className={clsx(styles.button, className)}>
        {label}
      </Link>
    );
  }

  const name = accountName(user);
  return (
    <Link to={appConfig.auth.callbackUrl} className={clsx(styles.button, styles.signedIn, className)}>
      <UserAvatar photoURL={user.photoURL} name={name} size={24} />
      <span>{name}</span>
    </Link>
  );
}
