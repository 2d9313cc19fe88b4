import React from 'react';
import {AFFILIATE_WORDS, appConfig} from '../config';
import Affiliates from '../components/screens/Affiliates';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function AffiliatesPage() {
  return (
    <MarketingLayout title={AFFILIATE_WORDS.heading} description={AFFILIATE_WORDS.description(appConfig.appName)}>
      <Affiliates />
    </MarketingLayout>
  );
}
