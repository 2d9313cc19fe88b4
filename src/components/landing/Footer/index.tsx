import React from 'react';
import Link from '@docusaurus/Link';
import {appConfig, type SisterApp} from '../../../config';
import Logo from '../../Logo';
import styles from './styles.module.css';

export interface FooterProps {
  supportEmail?: string;
  sisterApps?: readonly SisterApp[];
}

export default function Footer({
  supportEmail = appConfig.mailgun.supportEmail,
  sisterApps = appConfig.sisterApps,
}: FooterProps) {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          <Link to="/" className={styles.brandLink} aria-label={`${appConfig.appName} home`}>
            <Logo size={28} />
            <span>{appConfig.appName}</span>
          </Link>
          <p className={styles.description}>{appConfig.appDescription}</p>
          <p className={styles.copyright}>
            Copyright © {new Date().getFullYear()} {appConfig.appName}. All rights reserved.
          </p>
        </div>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className={styles.heading}>
            Links
          </h2>
          <ul className={styles.list}>
            <li>
              <Link to="/#pricing">Pricing</Link>
            </li>
            <li>
              <Link to="/docs">Documentation</Link>
            </li>
            {supportEmail && (
              <li>
                <a href={`mailto:${supportEmail}`}>Support</a>
              </li>
            )}
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className={styles.heading}>
            Legal
          </h2>
          <ul className={styles.list}>
            <li>
              <Link to="/tos">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacy-policy">Privacy Policy</Link>
            </li>
          </ul>
        </nav>
        {sisterApps.length > 0 && (
          <nav aria-labelledby="footer-apps">
            <h2 id="footer-apps" className={styles.heading}>
              Top Apps
            </h2>
            <ul className={styles.list}>
              {sisterApps.map((app) => (
                <li key={app.url}>
                  <a href={app.url} target="_blank" rel="noopener noreferrer">
                    {app.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </footer>
  );
}
