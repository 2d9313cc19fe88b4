import React from 'react';
import ButtonCheckout from '@site/src/components/shared/ButtonCheckout';
import {appConfig, checkoutPriceId} from '@site/src/config';

const starter = appConfig.plans[0];

export default function ButtonCheckoutExample() {
  return (
    <div style={{display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1rem'}}>
      {/* The featured plan (Advanced), as the call to action sells it. */}
      <ButtonCheckout />
      {/* The header's size. */}
      <ButtonCheckout size="small" />
      {/* A given plan, as each pricing card sells its own. */}
      <ButtonCheckout priceId={checkoutPriceId(starter)} label={`Get ${appConfig.appName} ${starter.name}`} />
    </div>
  );
}
