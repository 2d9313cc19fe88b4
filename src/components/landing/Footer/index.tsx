import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import {appConfig, ROUTES, type SisterApp} from '../../../config';
import Logo from '../../shared/Logo';
import styles from './styles.module.css';

export interface FooterProps {
  supportEmail?: string;
  sisterApps?: readonly SisterApp[];
}

/** A column of links, a navigation landmark named by its heading. */
function LinkGroup({id, title, children}: {id: string; title: string; children: ReactNode}) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className={styles.heading}>
        {title}
      </h2>
      <ul className={styles.list}>{children}</ul>
    </nav>
  );
}

export default function Footer({
  supportEmail = appConfig.support.email,
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
        <LinkGroup id="footer-links" title="Links">
          <li>
            <Link to="/#pricing">Pricing</Link>
          </li>
          <li>
            <Link to={ROUTES.docs}>Documentation</Link>
          </li>
          {supportEmail && (
            <li>
              <a href={`mailto:${supportEmail}`}>Support</a>
            </li>
          )}
        </LinkGroup>
        <LinkGroup id="footer-legal" title="Legal">
          <li>
            <Link to={ROUTES.terms}>Terms of Service</Link>
          </li>
          <li>
            <Link to={ROUTES.privacy}>Privacy Policy</Link>
          </li>
        </LinkGroup>
        {sisterApps.length > 0 && (
          <LinkGroup id="footer-apps" title="Top Apps">
            {sisterApps.map((app) => (
              <li key={app.url}>
                <a href={app.url} target="_blank" rel="noopener noreferrer">
                  {app.name}
                </a>
              </li>
            ))}
          </LinkGroup>
        )}
      </div>
    </footer>
  );
}
