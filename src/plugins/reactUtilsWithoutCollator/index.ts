import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from '../swapInBrowserBuild';

/**
 * Keeps the browser's collator out of a docs page's start. `useShallowMemoObject` in
 * @docusaurus/theme-common sorts an object's keys with `localeCompare`, and every docs page calls
 * it while it hydrates (each code block's word-wrap observer, the mobile sidebar's menu). The
 * first `localeCompare` of a page loads the ICU collation data: 20 to 70 ms on this machine's
 * Chromium, four times that under Lighthouse's mobile throttling, all of it blocking time. In the
 * browser build the module is swapped for ./reactUtils.js, the same code sorting by code unit,
 * which is all that sort needs (a stable order of the keys).
 */
export default function reactUtilsWithoutCollator(): Plugin {
  return swapInBrowserBuild(
    'react-utils-without-collator',
    /@docusaurus[\\/]theme-common[\\/]lib[\\/]utils[\\/]reactUtils(\.js)?$/,
    path.join(__dirname, 'reactUtils.js'),
  );
}
