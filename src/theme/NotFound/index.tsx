import React from 'react';
import {appConfig} from '../../config';
import MarketingLayout from '../../components/layout/MarketingLayout';
import NotFound from '../../components/screens/NotFound';

/**
 * The 404 page in the site's own header and footer, not the theme's stock text in the docs'
 * navigation: a reader who followed a dead link is closer to the product than to the docs' sidebar.
 */
export default function NotFoundPage() {
  return (
    <MarketingLayout
      title="Page Not Found"
      description={`This page does not exist. Search the ${appConfig.appName} docs, or start from the docs or the home page.`}
      noIndex>
      <NotFound />
    </MarketingLayout>
  );
}
