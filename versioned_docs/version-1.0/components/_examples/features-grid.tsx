import React from 'react';
import FeaturesGrid from '@site/src/components/landing/FeaturesGrid';
import {landingExtras} from '@site/src/config';

export default function FeaturesGridExample() {
  return <FeaturesGrid title={landingExtras.featuresGrid.title} features={landingExtras.featuresGrid.features} />;
}
