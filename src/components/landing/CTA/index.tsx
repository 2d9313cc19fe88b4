import React from 'react';
import Link from '@docusaurus/Link';
import {landing} from '../../../config';
import ButtonCheckout from '../../shared/ButtonCheckout';
import {DEMO_ANCHOR} from '../Hero/DemoVideo';
import LandingSection from '../LandingSection';
import styles from './styles.module.css';

export interface CTAProps {
  content?: typeof landing.cta;
}

export default function CTA({content = landing.cta}: CTAProps) {
  return (
    <LandingSection titleId="cta-title" title={content.title} subtitle={content.subtitle} classNames={styles}>
      <div className={styles.actions}>
        <ButtonCheckout label={content.button} className={styles.buy} />
        <Link to={`/#${DEMO_ANCHOR}`} className={styles.demo}>
          Watch Demo
        </Link>
      </div>
    </LandingSection>
  );
}
