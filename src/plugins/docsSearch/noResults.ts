/**
 * What the search bar shows when nothing matches: it says so, and offers the three pages most
 * readers need. There are no visit counts to go by (analytics are off until the seller sets them
 * up), so they are chosen from the buyer's path: every reader starts at Get started, a product that
 * sells needs Payments, and every buyer has to go online (Deployment). They are Get started's own
 * next steps, and they exist in every docs version.
 */
import {ROUTES} from '../../config';
import versions from '../../../versions.json';

/** Each page's place in a docs version, and its sidebar label. */
export const MOST_VISITED = [
  {path: '', label: 'Get started'},
  {path: '/features/payments', label: 'Payments'},
  {path: '/deployment', label: 'Deployment'},
] as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The docs root of the version being read at `pathname` (`/docs/1.0` on a 1.0 page), else of the current docs. */
export function docsRootOf(pathname: string): string {
  const version = pathname.slice(ROUTES.docs.length + 1).split('/')[0];
  return pathname.startsWith(`${ROUTES.docs}/`) && (versions as string[]).includes(version)
    ? `${ROUTES.docs}/${version}`
    : ROUTES.docs;
}

/** The dropdown's HTML (autocomplete.js takes a string) for a query that matched nothing. */
export function noResultsHtml(query: string, pathname: string, classes: {root: string; list: string}): string {
  const root = docsRootOf(pathname);
  const links = MOST_VISITED.map(({path, label}) => `<li><a href="${root}${path}">${label}</a></li>`).join('');
  return `<div class="${classes.root}"><p>No results for “${escape(query.trim())}”.</p><p>The most visited pages:</p><ul class="${classes.list}">${links}</ul></div>`;
}

/**
 * What the search box says under the dev server (`npm start`), where the plugin searches nothing:
 * its index is made from the pages of a production build, which the dev server never writes.
 */
export const NO_INDEX = {
  text: 'Search needs the production build: the dev server has no search index.',
  command: 'npm start -- --built',
};

/** The dropdown's HTML for any query under the dev server. */
export function noIndexHtml(classes: {root: string}): string {
  return `<div class="${classes.root}"><p>${NO_INDEX.text} Run <code>${NO_INDEX.command}</code> to search.</p></div>`;
}
