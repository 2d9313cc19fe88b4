import React from 'react';
import {appConfig, legal} from '../config';
import LegalPage from '../components/screens/LegalPage';
import Policy from './_legal/privacy-policy.mdx';

export default function PrivacyPolicy() {
  return (
    <LegalPage
      title="Privacy Policy"
      description={`What data ${appConfig.appName} collects, why, and your rights.`}
      lastUpdated={legal.privacy.lastUpdated}>
      <Policy />
    </LegalPage>
  );
}
