import React from 'react';
import {appConfig} from '../config';
import MarketingLayout from '../components/layout/MarketingLayout';
import NewPassword from '../components/screens/NewPassword';

export default function NewPasswordPage() {
  return (
    <MarketingLayout
      title="Choose your password"
      description={`Choose the password of your ${appConfig.appName} account.`}
      noIndex>
      <NewPassword />
    </MarketingLayout>
  );
}
