import React, {type ReactNode} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import LocalModeBanner from '../components/layout/LocalModeBanner';
import {SnackbarProvider} from '../components/shared/Snackbar';
import {AuthProvider} from '../lib/auth/AuthContext';
import {SiteSettingsProvider} from '../lib/SiteSettingsContext';
import type {SiteSettings} from '../buildTime/siteSettings';

/** Never unmounts: the place for providers every page shares. */
export default function Root({children}: {children: ReactNode}) {
  const {siteConfig} = useDocusaurusContext();
  const settings = siteConfig.customFields!.siteSettings as SiteSettings;
  return (
    <SiteSettingsProvider value={settings}>
      <AuthProvider settings={settings.auth}>
        <SnackbarProvider>
          <LocalModeBanner services={settings.localMode} />
          {children}
        </SnackbarProvider>
      </AuthProvider>
    </SiteSettingsProvider>
  );
}
