import React from 'react';
import {appConfig} from '../config';
import Admin from '../components/screens/Admin';
import ConsoleLayout from '../components/layout/ConsoleLayout';

export default function AdminPage() {
  return (
    <ConsoleLayout
      title="Console"
      description={`The seller's console of ${appConfig.appName}: sales, buyers, repository access and failures.`}>
      <Admin />
    </ConsoleLayout>
  );
}
