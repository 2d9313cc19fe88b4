import React, {useEffect} from 'react';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import {useHistory, useLocation} from '@docusaurus/router';
import {PageMetadata} from '@docusaurus/theme-common';

/**
 * An address a reader may type for a page that lives at another (src/pages/docs/get-started.tsx):
 * once the page's script runs, the router sends the browser on, query and fragment kept (the
 * backend switch, a heading), in the built site as in the dev server, which draws every page in
 * the browser. Without JavaScript the prerendered page links there. Search engines skip it, and
 * so does the sitemap. (The router's own <Redirect> would add its code to every page's bundle.)
 */
export default function RedirectTo({to, title}: {to: string; title: string}) {
  const history = useHistory();
  const {search, hash} = useLocation();
  useEffect(() => history.replace({pathname: to, search, hash}), [history, to, search, hash]);
  return (
    <main>
      <PageMetadata title={title} description={`${title} is at ${to}.`} />
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <p>
        {title} is at <Link to={to}>{to}</Link>.
      </p>
    </main>
  );
}
