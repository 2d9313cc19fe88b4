import React from 'react';
import MarketingLayout from '../components/layout/MarketingLayout';
import NewPassword from '../components/screens/NewPassword';

export default function NewPasswordPage() {
  return (
    <MarketingLayout title="Choose a new password" noIndex>
      <NewPassword />
    </MarketingLayout>
  );
}
