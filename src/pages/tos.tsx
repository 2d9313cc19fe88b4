import React from 'react';
import {appConfig, legal} from '../config';
import LegalPage from '../components/screens/LegalPage';
import Terms from './_legal/tos.mdx';

export default function TermsOfService() {
  return (
    <LegalPage
      title="Terms of Service"
      description={`The terms that govern buying and using ${appConfig.appName}.`}
      lastUpdated={legal.terms.lastUpdated}>
      <Terms />
    </LegalPage>
  );
}
