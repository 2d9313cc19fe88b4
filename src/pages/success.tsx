import React from 'react';
import {appConfig} from '../config';
import MarketingLayout from '../components/layout/MarketingLayout';
import SuccessContent from '../components/screens/SuccessContent';

export default function Success() {
  return (
    <MarketingLayout title="Purchase successful" description={`Your ${appConfig.appName} purchase went through.`}>
      <SuccessContent />
    </MarketingLayout>
  );
}
