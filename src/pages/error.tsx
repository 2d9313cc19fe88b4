import React from 'react';
import {appConfig} from '../config';
import ErrorScreen from '../components/ErrorScreen';
import MarketingLayout from '../components/MarketingLayout';

export default function ErrorPage() {
  return (
    <MarketingLayout title="Something went wrong" description={`${appConfig.appName} ran into an error.`} noIndex>
      <ErrorScreen />
    </MarketingLayout>
  );
}
