import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from '../swapInBrowserBuild';

/**
 * Moves the prefetching of linked pages out of a page's start. Docusaurus's
 * Link prefetches a page's chunks as soon as the link scrolls into view; on a
 * docs page that is every link of the navbar, the content and the footer, at
 * once, right after hydration, each one scanning the whole route table and
 * adding `<link rel="prefetch">` elements: a long task while the reader's
 * first tap waits. In the browser build `@docusaurus/core`'s client
 * `docusaurus.js` is swapped for ./docusaurus.js, which queues those
 * prefetches for the browser's idle time, finds a route's chunks in an index
 * built once, and prefetches each chunk once (pages share most of theirs: 490
 * prefetch elements for 34 files on a docs page at desktop width). `preload`
 * (a hover, a navigation) is unchanged.
 */
export default function prefetchWhenIdle(): Plugin {
  return swapInBrowserBuild(
    'prefetch-when-idle',
    /@docusaurus[\\/]core[\\/]lib[\\/]client[\\/]docusaurus(\.js)?$/,
    path.join(__dirname, 'docusaurus.js'),
  );
}
