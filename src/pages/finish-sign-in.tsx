import React from 'react';
import {appConfig} from '../config';
import FinishSignIn from '../components/screens/FinishSignIn';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function FinishSignInPage() {
  return (
    <MarketingLayout title="Signing in" description={`Finishing your sign-in to ${appConfig.appName}.`} noIndex>
      <FinishSignIn />
    </MarketingLayout>
  );
}
