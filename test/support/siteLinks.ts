/**
 * Whether the links of a built site lead somewhere: every `href` to the site itself names a built
 * page or file, and every `#fragment` an element that page holds. Pure, so a unit test can plant
 * a broken link; the browser test feeds it what Chromium's own parser read from each built page.
 */

/** What one built page links to and what its fragments can name. */
export interface PageLinks {
  /** The page's URL path, as `builtUrls` gives it: `/`, `/docs/features/payments`. */
  url: string;
  /** Every `href` attribute, as written. */
  hrefs: string[];
  /** Every `id`, and every `<a name>`: what a fragment can scroll to. */
  anchors: string[];
}

export interface BrokenLink {
  page: string;
  href: string;
  problem: string;
}

/** A fragment that needs no element: the spec scrolls to the top for an empty one or `#top`. */
const TOP = new Set(['', 'top']);

/**
 * The links among `pages` that lead nowhere. `files` are the other built files' paths (`/img/logo.png`);
 * `origins` are the origins that count as this site (the production one and the one it is served on).
 */
export function brokenLinks(pages: PageLinks[], files: Set<string>, origins: string[]): BrokenLink[] {
  const [home] = origins;
  const anchorsByUrl = new Map(pages.map((page) => [page.url, new Set(page.anchors)]));
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    for (const href of new Set(page.hrefs)) {
      let target: URL;
      try {
        target = new URL(href, `${home}${page.url}`);
      } catch {
        broken.push({page: page.url, href, problem: 'is not a URL'});
        continue;
      }
      if (!origins.includes(target.origin)) continue;
      const path = decodeURIComponent(target.pathname);
      // trailingSlash: false; a link to `/docs/` still reaches `/docs`, so only the path counts.
      const url = path.length > 1 ? path.replace(/\/$/, '') : path;
      const anchors = anchorsByUrl.get(url);
      if (!anchors) {
        if (!files.has(path)) broken.push({page: page.url, href, problem: `no page or file ${path} in the build`});
        continue;
      }
      const fragment = decodeURIComponent(target.hash.slice(1));
      if (!TOP.has(fragment.toLowerCase()) && !anchors.has(fragment)) {
        broken.push({page: page.url, href, problem: `no element with id "${fragment}" on ${url}`});
      }
    }
  }
  return broken;
}
