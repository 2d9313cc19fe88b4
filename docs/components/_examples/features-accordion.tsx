import React from 'react';
import FeaturesAccordion from '@site/src/components/landing/FeaturesAccordion';
import {landingExtras} from '@site/src/config';

export default function FeaturesAccordionExample() {
  return (
    <FeaturesAccordion
      title={landingExtras.featuresAccordion.title}
      features={landingExtras.featuresAccordion.features}
    />
  );
}
