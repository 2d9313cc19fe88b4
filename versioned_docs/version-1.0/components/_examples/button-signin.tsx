import React from 'react';
import ButtonSignin from '@site/src/components/ButtonSignin';

export default function ButtonSigninExample() {
  return <ButtonSignin />;
}
