import React from 'react';
import {appConfig} from '../config';
import ErrorScreen from '../components/screens/ErrorScreen';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function ErrorPage() {
  return (
    <MarketingLayout title="Something went wrong" description={`${appConfig.appName} ran into an error.`} noIndex>
      <ErrorScreen />
    </MarketingLayout>
  );
}
