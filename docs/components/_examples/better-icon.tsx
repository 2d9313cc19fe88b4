import React from 'react';
import BetterIcon from '@site/src/components/shared/BetterIcon';
import {featureIcons} from '@site/src/components/landing/featureIcons';
import {landingExtras} from '@site/src/config';

export default function BetterIconExample() {
  return (
    <ul style={{display: 'grid', gap: '0.75rem', margin: 0, padding: 0, listStyle: 'none'}}>
      {landingExtras.featuresAccordion.features.map((feature) => {
        const Icon = featureIcons[feature.icon];
        return (
          <li key={feature.title} style={{display: 'flex', alignItems: 'center', gap: '0.75rem', fontWeight: 700}}>
            <BetterIcon>
              <Icon />
            </BetterIcon>
            {feature.title}
          </li>
        );
      })}
    </ul>
  );
}
