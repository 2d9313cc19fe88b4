import React from 'react';
import {ROUTES} from '../../config';
import RedirectTo from '../../components/screens/Redirect';

/**
 * /docs/get-started, the address the Get started page's file gives (docs/get-started.mdx), which
 * its slug puts at /docs: a reader who types it, or follows an old link, lands there. A page of
 * its own, the cheapest route: every page's bundle carries the site's route table.
 */
export default function GetStartedAddress() {
  return <RedirectTo to={ROUTES.docs} title="Get started" />;
}
