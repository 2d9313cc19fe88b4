import React from 'react';
import MarketingLayout from '../components/MarketingLayout';
import SignIn from '../components/SignIn';

export default function SignInPage() {
  return (
    <MarketingLayout title="Sign in" noIndex>
      <SignIn />
    </MarketingLayout>
  );
}
