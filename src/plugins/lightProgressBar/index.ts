import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from '../swapInBrowserBuild';

/**
 * The classic theme's bar for a slow client-side navigation, drawn by ./nprogress.js in the
 * browser build instead of the nprogress package: the same markup and CSS in a few lines, about
 * 1.5 KB gzipped less in the script every page loads, and no `role="bar"` to patch out.
 * test/browser/accessibility.test.ts shows the bar on a slow navigation.
 */
export default function lightProgressBar(): Plugin {
  return swapInBrowserBuild('light-progress-bar', /^nprogress$/, path.join(__dirname, 'nprogress.js'));
}
