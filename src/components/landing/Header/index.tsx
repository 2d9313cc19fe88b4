import React, {useContext, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {appConfig} from '../../../config';
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
          <ButtonCheckout size="small" />
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
            <ButtonCheckout />
          </div>
        </div>
      )}
    </header>
  );
}
