import React from 'react';
import ButtonAccount from '@site/src/components/shared/ButtonAccount';
import {landing} from '@site/src/config';

// Sample users: the dashboard passes none and shows whoever is signed in.
const withAvatar = {
  uid: 'sample-1',
  email: 'amara@example.com',
  displayName: 'Amara O.',
  photoURL: landing.testimonials.avatars[0].src,
};
const withEmailOnly = {uid: 'sample-2', email: 'lukas@example.com', displayName: null, photoURL: null};

export default function ButtonAccountExample() {
  return (
    <div style={{display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: '1rem', minHeight: '7rem'}}>
      <ButtonAccount user={withAvatar} />
      <ButtonAccount user={withEmailOnly} />
    </div>
  );
}
