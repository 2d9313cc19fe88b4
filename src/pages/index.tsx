import React from 'react';
import Head from '@docusaurus/Head';
import {appConfig, landing} from '../config';
import MarketingLayout from '../components/layout/MarketingLayout';
import CTA from '../components/landing/CTA';
import FAQ from '../components/landing/FAQ';
import FeaturesListicle from '../components/landing/FeaturesListicle';
import Hero from '../components/landing/Hero';
import Pricing from '../components/landing/Pricing';
import Problem from '../components/landing/Problem';
import {productJsonLd} from '../seo/structuredData';

export default function Home() {
  return (
    <MarketingLayout title={landing.hero.headline} description={appConfig.appDescription}>
      <Head>
        <script type="application/ld+json">{JSON.stringify(productJsonLd())}</script>
      </Head>
      <Hero />
      <Problem />
      <FeaturesListicle />
      <Pricing />
      <FAQ />
      <CTA />
    </MarketingLayout>
  );
}
