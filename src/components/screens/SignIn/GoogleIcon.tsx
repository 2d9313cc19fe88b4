import React from 'react';
import {siGoogle} from 'simple-icons';

/** Google's "G", from simple-icons like the hero's integration logos. */
export default function GoogleIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      <path d={siGoogle.path} fill={`#${siGoogle.hex}`} />
    </svg>
  );
}
