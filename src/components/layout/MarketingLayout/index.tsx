import React, {type ReactNode} from 'react';
import ErrorBoundary from '@docusaurus/ErrorBoundary';
import Head from '@docusaurus/Head';
import {PageMetadata, SkipToContentFallbackId} from '@docusaurus/theme-common';
import ErrorPageContent from '@theme/ErrorPageContent';
import LayoutProvider from '@theme/Layout/Provider';
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
 * of the docs navbar: same providers, same skip link, same error boundary.
 */
export default function MarketingLayout({title, description, noIndex, children}: MarketingLayoutProps) {
  return (
    <LayoutProvider>
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
    </LayoutProvider>
  );
}
