import React from 'react';
import {PageMetadata} from '@docusaurus/theme-common';
import NotFound from '@theme-original/NotFound';

/** The theme's 404 page with a description, which every page has (search engines show it). */
export default function NotFoundWithDescription() {
  return (
    <>
      <PageMetadata description="This page does not exist. The header and the footer lead to the product, the docs and support." />
      <NotFound />
    </>
  );
}
