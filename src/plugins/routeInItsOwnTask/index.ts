import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from '../swapInBrowserBuild';

/**
 * Splits the bundle's start in two tasks. `@docusaurus/core`'s client entry runs every module of
 * `main.js` and then, in the same task, asks for the page's route chunks (matching the route table,
 * and one `<script>` element per chunk: 13 on a docs page): one task of about 25 ms on this
 * machine, over 100 ms under Lighthouse's mobile throttling, all before hydration. In the browser
 * build the entry is swapped for ./clientEntry.js, which runs the app's modules (route table,
 * registry, theme) and asks for the chunks in a second task: about 13 ms and 8 ms of CPU here.
 */
export default function routeInItsOwnTask(context: LoadContext): Plugin {
  if (context.siteConfig.future.experimental_router === 'hash') {
    throw new Error(
      'routeInItsOwnTask: ./clientEntry.js routes by path only; with the hash router, take the plugin out of docusaurus.config.ts.',
    );
  }
  return swapInBrowserBuild(
    'route-in-its-own-task',
    /@docusaurus[\\/]core[\\/]lib[\\/]client[\\/]clientEntry(\.js)?$/,
    path.join(__dirname, 'clientEntry.js'),
  );
}
