import React, {lazy} from 'react';
import {matchPath, useLocation} from '@docusaurus/router';
import DocsRoot from '@theme-original/DocsRoot';
import type DocsRootType from '@theme/DocsRoot';
import type {WrapperProps} from '@docusaurus/types';

type Props = WrapperProps<typeof DocsRootType>;

/** The part of a route the match needs (react-router-config's RouteConfig). */
interface Route {
  path?: string | string[];
  exact?: boolean;
  strict?: boolean;
  routes?: Route[];
}

/** The site's 404 page, fetched only when an address needs it, not with every docs page. */
const NotFound = lazy(() => import('@theme/NotFound'));

/** Whether some page of the docs, down the route tree, is at `pathname`. */
function hasPageAt(routes: readonly Route[] | undefined, pathname: string): boolean {
  return (routes ?? []).some((route) => {
    if (!matchPath(pathname, {path: route.path, exact: route.exact, strict: route.strict})) return false;
    return route.routes ? hasPageAt(route.routes, pathname) : true;
  });
}

/**
 * An address under /docs that no page of the docs has (a stale link, a typo) gets the site's own
 * 404 page, as every other missing address does, not the theme's stock text in the docs' frame.
 * The host answers such an address with the built 404.html, so this is also what keeps the page
 * the browser draws the same as the HTML it received.
 */
export default function DocsRootWrapper(props: Props) {
  const {pathname} = useLocation();
  if (!hasPageAt(props.route.routes, pathname)) return <NotFound />;
  return <DocsRoot {...props} />;
}
