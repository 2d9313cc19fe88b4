import React from 'react';
import TestimonialAvatars from '@site/src/components/shared/TestimonialAvatars';
import {appConfig, landing} from '@site/src/config';

export default function TestimonialAvatarsExample() {
  return <TestimonialAvatars avatars={landing.testimonials.avatars} count={appConfig.rating.count} claim={landing.testimonials.claim} />;
}
