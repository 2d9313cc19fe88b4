import React from 'react';
import CTA from '@site/src/components/landing/CTA';
import {landing} from '@site/src/config';

export default function CTAExample() {
  return <CTA content={landing.cta} />;
}
