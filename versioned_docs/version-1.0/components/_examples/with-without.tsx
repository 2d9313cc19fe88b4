import React from 'react';
import WithWithout from '@site/src/components/landing/WithWithout';
import {landingExtras} from '@site/src/config';

export default function WithWithoutExample() {
  const {title, without, with: gains} = landingExtras.withWithout;
  return <WithWithout title={title} without={without} with={gains} />;
}
