import React from 'react';
import FeaturesListicle from '@site/src/components/landing/FeaturesListicle';
import {landing} from '@site/src/config';

export default function FeaturesListicleExample() {
  return (
    <FeaturesListicle
      title={landing.features.title}
      subtitle={landing.features.subtitle}
      tabs={landing.features.tabs}
    />
  );
}
