import React from 'react';
import Header from '@site/src/components/landing/Header';

export default function HeaderExample() {
  return <Header />;
}
