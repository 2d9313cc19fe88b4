import React, {type ReactNode} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {SnackbarProvider} from '../components/Snackbar';
import {SiteSettingsProvider} from '../lib/SiteSettingsContext';
import type {SiteSettings} from '../lib/siteSettings';

/** Never unmounts: the place for providers every page shares. */
export default function Root({children}: {children: ReactNode}) {
  const {siteConfig} = useDocusaurusContext();
  const settings = siteConfig.customFields!.siteSettings as SiteSettings;
  return (
    <SiteSettingsProvider value={settings}>
      <SnackbarProvider>{children}</SnackbarProvider>
    </SiteSettingsProvider>
  );
}
