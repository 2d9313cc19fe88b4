import React from 'react';
import {appConfig} from '../config';
import Admin from '../components/screens/Admin';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function AdminPage() {
  return (
    <MarketingLayout title="Console" description={`The seller's console of ${appConfig.appName}: sales, buyers, repository access and failures.`} noIndex>
      <Admin />
    </MarketingLayout>
  );
}
