import React, {useContext, useEffect, useState} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {appConfig} from '../../../config';
import {useAuthClient} from '../../../lib/auth/AuthContext';
import {useBuyerHint} from '../../../lib/auth/buyerHint';
import ButtonCheckout from '../../shared/ButtonCheckout';
import ButtonSignin from '../../shared/ButtonSignin';
import Logo from '../../shared/Logo';
import {InPreview} from '../../shared/InPreview';
import styles from './styles.module.css';

export const headerLinks = [
  {href: '/#pricing', label: 'Pricing'},
  {href: '/#features', label: 'Features'},
  {href: '/#faq', label: 'FAQ'},
] as const;

function NavLinks({className}: {className: string}) {
  return (
    <ul className={className}>
      {headerLinks.map((link) => (
        <li key={link.href}>
          <Link to={link.href} className={styles.link}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The buy button; for a signed-in buyer, the way to the dashboard instead. Whether the account has
 * bought is the worker's answer as this browser last heard it (`buyerHint`), so a visitor's page
 * loads no auth SDK for it, and it opens nothing by itself.
 */
function BuyOrDashboard({size}: {size?: 'small'}) {
  const {ready, user} = useAuthClient();
  const {pathname} = useLocation();
  const buyer = useBuyerHint(ready && user ? user.uid : undefined);
  if (!buyer) return <ButtonCheckout size={size} />;
  const here = pathname.replace(/\/+$/, '') === appConfig.auth.callbackUrl;
  return (
    <Link
      to={appConfig.auth.callbackUrl}
      className={clsx(styles.dashboard, size === 'small' && styles.small)}
      aria-current={here ? 'page' : undefined}>
      Dashboard
    </Link>
  );
}

export default function Header() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const inPreview = useContext(InPreview);

  // Any navigation, to another page or to an anchor, closes the mobile menu.
  useEffect(() => setOpen(false), [location.pathname, location.hash, location.search]);

  const brand = (
    <Link to="/" className={styles.brand} aria-label={`${appConfig.appName} home`}>
      <Logo size={32} />
      <span>{appConfig.appName}</span>
    </Link>
  );

  return (
    <header className={styles.header}>
      <nav className={styles.bar} aria-label={inPreview ? 'Main (preview)' : 'Main'}>
        {brand}
        <NavLinks className={styles.desktopLinks} />
        <div className={styles.desktopActions}>
          <ButtonSignin variant="text" />
          <BuyOrDashboard size="small" />
        </div>
        <button
          type="button"
          className={styles.burger}
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen(true)}>
          <span className="sr-only">Open main menu</span>
          <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </nav>
      {open && (
        <div id="mobile-menu" className={styles.mobileMenu}>
          <div className={styles.mobileTop}>
            {brand}
            <button type="button" className={styles.burger} onClick={() => setOpen(false)}>
              <span className="sr-only">Close menu</span>
              <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <nav aria-label="Mobile">
            <NavLinks className={styles.mobileLinks} />
          </nav>
          <div className={styles.mobileActions}>
            <ButtonSignin variant="text" />
            <BuyOrDashboard />
          </div>
        </div>
      )}
    </header>
  );
}
