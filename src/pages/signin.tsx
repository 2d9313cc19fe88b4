import React from 'react';
import {appConfig} from '../config';
import MarketingLayout from '../components/layout/MarketingLayout';
import SignIn from '../components/screens/SignIn';

export default function SignInPage() {
  return (
    <MarketingLayout
      title="Sign in"
      description={`Sign in to ${appConfig.appName} with Google, a magic link or your password to reach your purchase.`}
      noIndex>
      <SignIn />
    </MarketingLayout>
  );
}
