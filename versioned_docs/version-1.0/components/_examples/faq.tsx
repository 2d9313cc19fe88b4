import React from 'react';
import FAQ from '@site/src/components/landing/FAQ';
import {appConfig, landing} from '@site/src/config';

export default function FAQExample() {
  return <FAQ items={landing.faq.items} title={landing.faq.title} supportEmail={appConfig.support.email} />;
}
