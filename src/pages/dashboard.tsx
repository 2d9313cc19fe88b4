import React from 'react';
import {appConfig} from '../config';
import Dashboard from '../components/screens/Dashboard';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function DashboardPage() {
  return (
    <MarketingLayout
      title="Dashboard"
      description={`Your ${appConfig.appName} purchase: access to the code repository and your billing.`}>
      <Dashboard />
    </MarketingLayout>
  );
}
