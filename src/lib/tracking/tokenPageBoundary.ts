import {isTokenPage} from '../../config';

/** The part of the router's history this needs: react-router 5's `history` object. */
export interface RouterHistory {
  push(to: string | PathObject, state?: unknown): void;
  replace(to: string | PathObject, state?: unknown): void;
}
interface PathObject {
  pathname?: string;
  search?: string;
  hash?: string;
}

const guarded = new WeakSet<object>();

/**
 * Third-party scripts and the pages that hold a token never share a document.
 *
 * Docusaurus is a single-page app: a visitor who opens `/` (the pixel loaded) and clicks Login
 * would reach `/signin` in the same document, the pixel still running beside the ID token. So,
 * while tracking is on, every navigation that crosses between TOKEN_PAGES and the other pages
 * becomes a full page load: the router's push and replace hand it to the browser instead of
 * changing the page in place. A document that starts on a token page never starts tracking
 * (src/clientModules/tracking.ts), and one that starts elsewhere never shows a token page.
 * Navigations on one side stay client-side, and with no tracking id nothing changes.
 *
 * It wraps the history object rather than calling `history.block`: react-router 5 keeps one block
 * at a time, and the navbar's mobile sidebar sets and clears its own.
 */
export function keepTokenPagesApart(history: RouterHistory, documentPath: string): void {
  if (guarded.has(history)) return;
  guarded.add(history);
  const startedOnTokenPage = isTokenPage(documentPath);
  for (const method of ['push', 'replace'] as const) {
    const navigate = history[method].bind(history);
    history[method] = (to, state) => {
      const target = targetUrl(to);
      if (isTokenPage(target.pathname) === startedOnTokenPage) return navigate(to, state);
      if (method === 'push') window.location.assign(target.href);
      else window.location.replace(target.href);
    };
  }
}

/** Where a push or replace leads, resolved as the router resolves it: a missing path keeps the current one. */
function targetUrl(to: string | PathObject): URL {
  if (typeof to === 'string') return new URL(to, window.location.href);
  return new URL(`${to.pathname || window.location.pathname}${to.search ?? ''}${to.hash ?? ''}`, window.location.href);
}
