import React from 'react';
import {afterPurchase} from '../config';
import MarketingLayout from '../components/layout/MarketingLayout';
import SuccessContent from '../components/screens/SuccessContent';

export default function Success() {
  const {title, description} = afterPurchase.successPage.meta;
  return (
    <MarketingLayout title={title} description={description}>
      <SuccessContent />
    </MarketingLayout>
  );
}
