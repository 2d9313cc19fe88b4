import React, {useState} from 'react';
import ButtonGradient from '@site/src/components/shared/ButtonGradient';
import {landing} from '@site/src/config';

export default function ButtonGradientExample() {
  const [clicks, setClicks] = useState(0);
  return (
    <div style={{display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1rem'}}>
      <ButtonGradient to="/#pricing">{landing.cta.button}</ButtonGradient>
      <ButtonGradient onClick={() => setClicks((count) => count + 1)}>Start building</ButtonGradient>
      <span aria-live="polite">{clicks > 0 && `Clicked ${clicks} ${clicks === 1 ? 'time' : 'times'}`}</span>
    </div>
  );
}
