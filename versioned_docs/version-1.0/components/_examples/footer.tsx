import React from 'react';
import Footer from '@site/src/components/landing/Footer';
import {appConfig} from '@site/src/config';

export default function FooterExample() {
  return <Footer supportEmail={appConfig.support.email} sisterApps={appConfig.sisterApps} />;
}
