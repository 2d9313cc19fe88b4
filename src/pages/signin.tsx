import React from 'react';
import MarketingLayout from '../components/layout/MarketingLayout';
import SignIn from '../components/screens/SignIn';

export default function SignInPage() {
  return (
    <MarketingLayout title="Sign in" noIndex>
      <SignIn />
    </MarketingLayout>
  );
}
