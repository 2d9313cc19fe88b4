import React from 'react';
import Dashboard from '../components/Dashboard';
import MarketingLayout from '../components/MarketingLayout';

export default function DashboardPage() {
  return (
    <MarketingLayout title="Dashboard">
      <Dashboard />
    </MarketingLayout>
  );
}
