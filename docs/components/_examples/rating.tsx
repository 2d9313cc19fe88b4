import React from 'react';
import Rating from '@site/src/components/shared/Rating';
import {appConfig} from '@site/src/config';

export default function RatingExample() {
  const {value, count} = appConfig.rating;
  return (
    <p style={{display: 'flex', alignItems: 'center', gap: '0.5rem', margin: 0}}>
      <Rating value={value} />
      <span>
        {value.toFixed(1)} from {count} reviews
      </span>
    </p>
  );
}
