import React, {type ReactNode} from 'react';
import ErrorBoundary from '@docusaurus/ErrorBoundary';
import Head from '@docusaurus/Head';
import {PageMetadata, SkipToContentFallbackId} from '@docusaurus/theme-common';
import {PluginHtmlClassNameProvider} from '@docusaurus/theme-common/internal';
import ErrorPageContent from '@theme/ErrorPageContent';
import SkipToContent from '@theme/SkipToContent';
import {siteUrl} from '../../../seo/siteUrl';
import Footer from '../../landing/Footer';
import Header from '../../landing/Header';
import styles from './styles.module.css';

export interface MarketingLayoutProps {
  title?: string;
  description?: string;
  /** Keeps the page out of search indexes (the dashboard, the error screen). */
  noIndex?: boolean;
  children: ReactNode;
}

/**
 * The theme's Layout with the landing page's own header and footer in place
 * of the docs navbar: same skip link, same error boundary. Of the theme
 * Layout's providers it keeps only the one that marks <html> with the page's
 * plugin: the others (colour mode, navbar, announcement bar, scroll, docs
 * version) serve the docs' navbar and sidebar, which these pages do not show,
 * and cost the landing page ~4 KB of script.
 */
export default function MarketingLayout({title, description, noIndex, children}: MarketingLayoutProps) {
  return (
    <PluginHtmlClassNameProvider>
      <PageMetadata title={title} description={description} />
      <Head>
        <html className="marketing" />
        <meta name="twitter:image" content={`${siteUrl}/img/twitter-image.jpg`} />
        {noIndex && <meta name="robots" content="noindex, nofollow" />}
      </Head>
      <SkipToContent />
      <Header />
      <main id={SkipToContentFallbackId} className={styles.main}>
        <ErrorBoundary fallback={(params) => <ErrorPageContent {...params} />}>{children}</ErrorBoundary>
      </main>
      <Footer />
    </PluginHtmlClassNameProvider>
  );
}
