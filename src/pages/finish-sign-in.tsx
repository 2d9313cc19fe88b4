import React from 'react';
import FinishSignIn from '../components/FinishSignIn';
import MarketingLayout from '../components/MarketingLayout';

export default function FinishSignInPage() {
  return (
    <MarketingLayout title="Signing in" noIndex>
      <FinishSignIn />
    </MarketingLayout>
  );
}
