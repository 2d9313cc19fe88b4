import React from 'react';
import Admin from '../components/screens/Admin';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function AdminPage() {
  return (
    <MarketingLayout title="Console" noIndex>
      <Admin />
    </MarketingLayout>
  );
}
