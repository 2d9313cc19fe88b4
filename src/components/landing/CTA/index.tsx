import React from 'react';
import Link from '@docusaurus/Link';
import {landing} from '../../../config';
import ButtonCheckout from '../../ButtonCheckout';
import {DEMO_ANCHOR} from '../Hero/DemoVideo';
import styles from './styles.module.css';

export interface CTAProps {
  content?: typeof landing.cta;
}

export default function CTA({content = landing.cta}: CTAProps) {
  return (
    <section className={styles.section} aria-labelledby="cta-title">
      <div className={styles.inner}>
        <h2 id="cta-title" className={styles.title}>
          {content.title}
        </h2>
        <p className={styles.subtitle}>{content.subtitle}</p>
        <div className={styles.actions}>
          <ButtonCheckout label={content.button} className={styles.buy} />
          <Link to={`/#${DEMO_ANCHOR}`} className={styles.demo}>
            Watch Demo
          </Link>
        </div>
      </div>
    </section>
  );
}
