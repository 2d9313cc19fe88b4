/**
 * The Content-Security-Policy of the built site, computed from the built pages
 * (src/plugins/contentSecurityPolicy.ts writes it to `build/_headers`).
 *
 * - Scripts come from the site itself, from inline scripts allowed by their SHA-256 hash (the
 *   theme's colour mode and query-string attributes, our own <head> guards, the paint-first runner),
 *   and from the third-party hosts of the services that are on. Never `'unsafe-inline'`.
 * - The pages that hold a token (TOKEN_PAGES) name no tracking host. With Firebase, every page
 *   names apis.google.com: Google sign-in loads its popup script in whichever document shows
 *   `/signin`, and a visitor can reach it from any page without a page load.
 * - `object-src 'none'`, `base-uri 'self'` and `frame-ancestors 'none'` everywhere.
 *
 * Two rules: `/*` for every path, with every host and hash any page needs, and one per token page
 * with its own, narrower policy. Cloudflare sends both policies to a token page, and a browser
 * enforces each, so what runs is what both allow: the narrower one. Netlify sends the last rule's,
 * the narrower one too. Connections, styles, images and frames are left alone: Firebase, Supabase,
 * the worker, the Auth emulator and the chat all need their own, and a wrong guess breaks sign-in.
 */
import {createHash} from 'node:crypto';
import {parse} from 'parse5';
import type {DefaultTreeAdapterMap} from 'parse5';
import {isTokenPage, TOKEN_PAGES} from '../config';
import {THIRD_PARTY_SCRIPTS, trackingScriptHosts} from '../lib/tracking/thirdParty';
import type {HeaderRule} from './headersFile';
import type {SiteSettings} from './siteSettings';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** What the policy needs to know of one built page. */
export interface PageScripts {
  /** The text of each inline script the browser runs, as it runs it. */
  inline: string[];
  /** Each script loaded by address (`src`), with where its element starts and ends in the file. */
  external: {src: string; start: number; end: number}[];
}

/** MIME types the HTML standard runs as classic scripts. */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);
/** The other script types that run, and that `script-src` governs. */
const OTHER_RUNNING_TYPES = new Set(['module', 'importmap', 'speculationrules']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data']);

const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name)?.value;

/**
 * Whether a script element's content runs, by its `type` (or legacy `language`), as the HTML
 * standard decides; anything else (`application/ld+json`, say) is a data block and runs nothing.
 */
export function runs(type: string | undefined, language?: string): boolean {
  const kind = type === undefined ? (language ? `text/${language}` : '') : type.trim().toLowerCase();
  return kind === '' || JAVASCRIPT_TYPES.has(kind) || OTHER_RUNNING_TYPES.has(kind);
}

/**
 * The scripts of a built page, read with parse5 (the HTML standard's parser: a script's text is
 * what the browser hashes, newlines normalised as it normalises them). A page that runs code
 * no hash can allow stops the build: an inline event handler (`onload="…"`) would need
 * `'unsafe-hashes'`, and a `javascript:` URL `'unsafe-inline'`.
 */
export function readScripts(html: string, file: string): PageScripts {
  const found: PageScripts = {inline: [], external: []};
  const visit = (node: Node) => {
    if ('tagName' in node) {
      for (const attr of node.attrs) {
        if (/^on[a-z]+$/i.test(attr.name)) {
          throw new Error(
            `${file}: <${node.tagName} ${attr.name}="…"> is an inline event handler, which the Content-Security-Policy refuses; add the listener from a script instead.`,
          );
        }
        if (URL_ATTRIBUTES.has(attr.name) && /^\s*javascript:/i.test(attr.value)) {
          throw new Error(
            `${file}: <${node.tagName} ${attr.name}="${attr.value.slice(0, 40)}…"> is a javascript: URL, which the Content-Security-Policy refuses.`,
          );
        }
      }
      if (node.tagName === 'script' && runs(attribute(node, 'type'), attribute(node, 'language'))) {
        const src = attribute(node, 'src');
        if (src !== undefined) {
          const location = node.sourceCodeLocation!;
          found.external.push({src, start: location.startOffset, end: location.endOffset});
        } else {
          found.inline.push(node.childNodes.map((child) => ('value' in child ? child.value : '')).join(''));
        }
      }
      if ('content' in node) visit(node.content);
    }
    if ('childNodes' in node) for (const child of node.childNodes) visit(child);
  };
  visit(parse(html, {sourceCodeLocationInfo: true}));
  return found;
}

/** The page without the given script elements. */
export function withoutScripts(html: string, scripts: PageScripts['external']): string {
  return [...scripts]
    .sort((a, b) => b.start - a.start)
    .reduce((out, script) => out.slice(0, script.start) + out.slice(script.end), html);
}

export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The URL a built HTML file serves: `docs/features.html` is /docs/features, `index.html` its folder. */
export function pageUrl(file: string): string {
  const url = `/${file.split(/[\\/]/).join('/')}`.replace(/(\/index)?\.html$/, '');
  return url === '' ? '/' : url;
}

/** A script address's origin, or null when it is the site's own (relative, or on `siteOrigin`). */
export function foreignOrigin(src: string, siteOrigin: string): string | null {
  const url = new URL(src, `${siteOrigin}/`);
  return url.origin === siteOrigin ? null : url.origin;
}

/** Whether a script address is one of the site's own bundles (webpack's output under /assets/js/). */
export function isOwnBundle(src: string, siteOrigin: string): boolean {
  return foreignOrigin(src, siteOrigin) === null && new URL(src, `${siteOrigin}/`).pathname.startsWith('/assets/js/');
}

export type PolicySettings = Pick<SiteSettings, 'metaPixelId' | 'gaMeasurementId' | 'crispWebsiteId'> & {
  auth: Pick<SiteSettings['auth'], 'provider'>;
};

export interface BuiltPageScripts {
  url: string;
  scripts: PageScripts;
}

function policy(scriptSources: string[]): string {
  return [
    `script-src 'self' ${[...new Set(scriptSources)].join(' ')}`.trimEnd(),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The `_headers` rules: `/*` with every hash and host the site needs, then each token page with
 * its own hashes and no tracking host. A script a token page loads by address that is not one of
 * the site's bundles (a `scripts` entry of docusaurus.config.ts) is taken out of the page before
 * this is called (src/plugins/contentSecurityPolicy.ts); one still there stops the build.
 */
export function contentSecurityPolicyRules(
  pages: BuiltPageScripts[],
  settings: PolicySettings,
  siteOrigin: string,
): HeaderRule[] {
  const signIn = settings.auth.provider === 'firebase' ? THIRD_PARTY_SCRIPTS.firebaseGoogleSignIn.hosts : [];
  const hashesOf = (list: BuiltPageScripts[]) =>
    [...new Set(list.flatMap((page) => page.scripts.inline.map(scriptHash)))].sort();
  const foreign = (page: BuiltPageScripts) =>
    page.scripts.external
      .map((script) => foreignOrigin(script.src, siteOrigin))
      .filter((origin): origin is string => origin !== null);

  const tokenPages = pages.filter((page) => isTokenPage(page.url));
  for (const page of tokenPages) {
    const others = page.scripts.external.filter((script) => !isOwnBundle(script.src, siteOrigin));
    if (others.length > 0) {
      throw new Error(
        `${page.url} holds a token and loads ${others.map((script) => script.src).join(', ')}: the pages that hold a token run only the site's own bundles.`,
      );
    }
  }
  const configured = pages.flatMap(foreign).sort();
  const everywhere: HeaderRule = {
    path: '/*',
    headers: {
      'Content-Security-Policy': policy([
        ...hashesOf(pages),
        ...signIn,
        ...trackingScriptHosts(settings),
        ...configured,
      ]),
    },
  };
  const tokenPolicy = policy([...hashesOf(tokenPages), ...signIn]);
  const tokenRules = TOKEN_PAGES.filter((route) => tokenPages.some((page) => page.url === route)).map((route) => ({
    path: route,
    headers: {'Content-Security-Policy': tokenPolicy},
  }));
  return [everywhere, ...tokenRules];
}
