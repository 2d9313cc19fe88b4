import React from 'react';
import Head from '@docusaurus/Head';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import type {Props} from '@theme/Error';
import {SiteSettingsProvider} from '../lib/SiteSettingsContext';
import type {SiteSettings} from '../buildTime/siteSettings';
import ErrorPageContent from './ErrorPageContent';

/**
 * What Docusaurus shows when a page crashes outside every layout (its
 * outermost error boundary, above Root's providers): our error screen on its
 * own, which needs nothing but the config. The stock one wraps its message
 * in the docs' Layout, which put that whole Layout (navbar, footer, sidebar
 * state) into the script every page loads, the landing page included.
 */
export default function Error(props: Props) {
  // Above Root, so the settings come straight from the config, as Root reads them.
  const settings = useDocusaurusContext().siteConfig.customFields!.siteSettings as SiteSettings;
  return (
    <SiteSettingsProvider value={settings}>
      <Head>
        <title>Something went wrong</title>
      </Head>
      <main>
        <ErrorPageContent {...props} />
      </main>
    </SiteSettingsProvider>
  );
}
