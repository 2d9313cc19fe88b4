/**
 * @jest-environment node
 *
 * The search bar's answer to a query that matches nothing (src/plugins/docsSearch/noResults.ts).
 */
import {noResultsHtml} from '../../src/plugins/docsSearch/noResults';

const classes = {root: 'root', list: 'list'};
const links = (html: string) =>
  [...html.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, text]) => `${text} ${href}`);

it('says nothing matched, quoting the query as typed', () => {
  expect(noResultsHtml('  <b>helm</b> ', '/docs', classes)).toContain('No results for “&#60;b&#62;helm&#60;/b&#62;”.');
});

it('offers the three most visited pages of the current docs', () => {
  expect(links(noResultsHtml('helm', '/docs/features/analytics', classes))).toEqual([
    'Get started /docs',
    'Payments /docs/features/payments',
    'Deployment /docs/deployment',
  ]);
});

it('offers those of the released version being read', () => {
  expect(links(noResultsHtml('helm', '/docs/1.0/features/seo', classes))).toEqual([
    'Get started /docs/1.0',
    'Payments /docs/1.0/features/payments',
    'Deployment /docs/1.0/deployment',
  ]);
});

it('offers the current docs outside the docs', () => {
  expect(links(noResultsHtml('helm', '/search', classes))[0]).toBe('Get started /docs');
});
