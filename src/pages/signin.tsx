import React from 'react';
import MarketingLayout from '../components/MarketingLayout';
import NotYetOpen from '../components/NotYetOpen';

export default function SignIn() {
  return (
    <MarketingLayout title="Sign in" noIndex>
      <NotYetOpen title="Sign in" />
    </MarketingLayout>
  );
}
