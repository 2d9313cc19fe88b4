import React from 'react';
import MarketingLayout from '../components/MarketingLayout';
import NotYetOpen from '../components/NotYetOpen';

export default function Dashboard() {
  return (
    <MarketingLayout title="Dashboard">
      <NotYetOpen title="Your dashboard" />
    </MarketingLayout>
  );
}
