import React from 'react';
import Link from '@docusaurus/Link';
import {landing} from '../../../config';
import {useSectionAnchor} from '../../../lib/useSectionAnchor';
import TestimonialAvatars from '../../shared/TestimonialAvatars';
import DemoVideo, {DEMO_ANCHOR} from './DemoVideo';
import {integrationIcons} from './integrationIcons';
import styles from './styles.module.css';

export interface HeroProps {
  content?: typeof landing.hero;
  testimonials?: typeof landing.testimonials;
  integrations?: typeof landing.integrations;
}

export default function Hero({
  content = landing.hero,
  testimonials = landing.testimonials,
  integrations = landing.integrations,
}: HeroProps) {
  useSectionAnchor(DEMO_ANCHOR);
  return (
    <section className={styles.hero} aria-labelledby="hero-title">
      <div className={styles.copy}>
        <h1 id="hero-title" className={styles.title}>
          {content.headline}
        </h1>
        <p className={styles.subtitle}>{content.subheadline}</p>
        <div className={styles.actions}>
          <Link to={content.primaryCtaTo} className={styles.primary} aria-describedby="hero-cta-note">
            {content.primaryCta}
          </Link>
          <Link to={`/#${DEMO_ANCHOR}`} className={styles.secondary}>
            <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true">
              <path d="M6 4.5v11l9-5.5z" fill="currentColor" />
            </svg>
            Watch Demo
          </Link>
          <p id="hero-cta-note" className={styles.ctaNote}>
            {content.primaryCtaNote}
          </p>
        </div>
        <TestimonialAvatars avatars={testimonials.avatars} count={testimonials.count} claim={testimonials.claim} />
      </div>
      <DemoVideo {...content.demoVideo} />
      <div className={styles.integrations}>
        <p className={styles.integrationsTitle}>Works with the services you already trust</p>
        <ul className={styles.integrationList}>
          {integrations.map((integration) => {
            const icon = integrationIcons[integration.icon];
            return (
              <li key={integration.name} title={`${integration.name}: ${integration.role}`}>
                <svg role="img" viewBox="0 0 24 24" width="28" height="28" aria-label={integration.name}>
                  <path d={icon.path} fill={`#${icon.hex}`} />
                </svg>
                <span className={styles.integrationName}>{integration.name}</span>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
