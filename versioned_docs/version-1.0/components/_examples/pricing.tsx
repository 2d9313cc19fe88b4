import React from 'react';
import Pricing from '@site/src/components/landing/Pricing';
import {appConfig, landing} from '@site/src/config';

export default function PricingExample() {
  return <Pricing plans={appConfig.plans} title={landing.pricing.title} subtitle={landing.pricing.subtitle} />;
}
