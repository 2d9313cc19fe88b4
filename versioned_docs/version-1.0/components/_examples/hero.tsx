import React from 'react';
import Hero from '@site/src/components/landing/Hero';
import {landing} from '@site/src/config';

export default function HeroExample() {
  return <Hero content={landing.hero} testimonials={landing.testimonials} integrations={landing.integrations} />;
}
