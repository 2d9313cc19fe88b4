import React from 'react';
import Footer from '@site/src/components/landing/Footer';
import {appConfig} from '@site/src/config';

export default function FooterExample() {
  return <Footer supportEmail={appConfig.mailgun.supportEmail} sisterApps={appConfig.sisterApps} />;
}
