import React from 'react';
import ButtonLead from '@site/src/components/shared/ButtonLead';
import {landingExtras} from '@site/src/config';

export default function ButtonLeadExample() {
  return <ButtonLead copy={landingExtras.lead} />;
}
