import React from 'react';
import Dashboard from '../components/screens/Dashboard';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function DashboardPage() {
  return (
    <MarketingLayout title="Dashboard">
      <Dashboard />
    </MarketingLayout>
  );
}
