import React, {useLayoutEffect, type ReactNode} from 'react';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import {useHistory} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import LocalModeBanner from '../components/layout/LocalModeBanner';
import {SnackbarProvider} from '../components/shared/Snackbar';
import {AuthProvider} from '../lib/auth/AuthContext';
import {endFirstHydration} from '../lib/firstHydration';
import {SiteSettingsProvider} from '../lib/SiteSettingsContext';
import {keepTokenPagesApart} from '../lib/tracking/tokenPageBoundary';
import {loadsThirdPartyScripts} from '../lib/tracking/thirdParty';
import type {SiteSettings} from '../buildTime/siteSettings';

/** Never unmounts: the place for providers every page shares. */
export default function Root({children}: {children: ReactNode}) {
  const {siteConfig} = useDocusaurusContext();
  const settings = siteConfig.customFields!.siteSettings as SiteSettings;
  const history = useHistory();
  // The last layout effect of the first commit: every component of the hydration has rendered.
  useLayoutEffect(endFirstHydration, []);
  // Before any page renders: another party's scripts and the pages that hold a token never share a document.
  if (ExecutionEnvironment.canUseDOM && loadsThirdPartyScripts(settings, siteConfig.scripts))
    keepTokenPagesApart(history, window.location.pathname);
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
