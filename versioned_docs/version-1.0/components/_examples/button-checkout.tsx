import React from 'react';
import ButtonCheckout from '@site/src/components/shared/ButtonCheckout';
import {appConfig} from '@site/src/config';
import {useSiteSettings} from '@site/src/lib/SiteSettingsContext';

const starter = appConfig.plans[0];

export default function ButtonCheckoutExample() {
  const {stripeMode} = useSiteSettings();
  return (
    <div style={{display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1rem'}}>
      {/* The featured plan (Advanced), as the call to action sells it. */}
      <ButtonCheckout />
      {/* The header's size. */}
      <ButtonCheckout size="small" />
      {/* A given plan, as each pricing card sells its own. */}
      <ButtonCheckout priceId={starter.priceId[stripeMode]} label={`Get ${appConfig.appName} ${starter.name}`} />
    </div>
  );
}
