import React, {type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import {PageMetadata} from '@docusaurus/theme-common';
import {PluginHtmlClassNameProvider} from '@docusaurus/theme-common/internal';
import SkipToContent from '@theme/SkipToContent';

export interface ConsoleLayoutProps {
  title: string;
  description: string;
  children: ReactNode;
}

/**
 * The seller's console page, as MarketingLayout is the storefront's: the page's title and
 * description, the skip link, and the same light surface, but none of the storefront's header
 * (its buy button) or footer. The console draws its own frame (ConsoleShell), which knows whether
 * the account is an admin. Never indexed: robots.txt disallows /admin/ too.
 */
export default function ConsoleLayout({title, description, children}: ConsoleLayoutProps) {
  return (
    <PluginHtmlClassNameProvider>
      <PageMetadata title={title} description={description} />
      <Head>
        <html className="marketing" />
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <SkipToContent />
      {children}
    </PluginHtmlClassNameProvider>
  );
}
