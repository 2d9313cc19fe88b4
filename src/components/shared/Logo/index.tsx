import React from 'react';
import {appConfig} from '../../../config';

/** The brand mark: a boat on its slipway. Drawn inline so it costs no request. */
export default function Logo({size = 32, className}: {size?: number; className?: string}) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={appConfig.themeColor} />
      <path d="M5 25 27 14" stroke="#ffffff" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M9 17.5h11.5l-2.8 3.6H12.2z" fill="#ffffff" transform="rotate(-26.6 14.75 19.3)" />
      <path d="M14.2 15.3 14 7.5l5.6 5.3z" fill="#99f6e4" />
    </svg>
  );
}
