import React from 'react';
import Link from '@docusaurus/Link';
import {appConfig} from '../../config';
import styles from './styles.module.css';

/**
 * Stands where sign-in and the dashboard will be, and says plainly what a
 * buyer can do until then.
 */
export default function NotYetOpen({title}: {title: string}) {
  const {supportEmail} = appConfig.mailgun;
  return (
    <div className={styles.box}>
      <h1>{title}</h1>
      <p>
        Accounts are not open yet. If you bought {appConfig.appName}, write to{' '}
        <a href={`mailto:${supportEmail}`}>{supportEmail}</a> with your GitHub username and we will invite you to
        the repository by hand.
      </p>
      <Link to="/">Back to the home page</Link>
    </div>
  );
}
