import React from 'react';
import FinishSignIn from '../components/screens/FinishSignIn';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function FinishSignInPage() {
  return (
    <MarketingLayout title="Signing in" noIndex>
      <FinishSignIn />
    </MarketingLayout>
  );
}
