import React from 'react';
import ButtonSignin from '@site/src/components/shared/ButtonSignin';

export default function ButtonSigninExample() {
  return <ButtonSignin />;
}
