import React from 'react';
import TestimonialAvatars from '@site/src/components/shared/TestimonialAvatars';
import {landing} from '@site/src/config';

export default function TestimonialAvatarsExample() {
  return (
    <TestimonialAvatars
      avatars={landing.testimonials.avatars}
      count={landing.testimonials.count}
      claim={landing.testimonials.claim}
    />
  );
}
