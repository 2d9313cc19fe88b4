import React from 'react';
import Rating from '@site/src/components/shared/Rating';

export default function RatingExample() {
  return (
    <p style={{display: 'flex', alignItems: 'center', gap: '0.5rem', margin: 0}}>
      <Rating value={4.5} />
      <span>4.5 from 20 reviews</span>
    </p>
  );
}
