import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {swapInBrowserBuild} from '../swapInBrowserBuild';

/**
 * Keeps tslib (~4 KB gzipped) out of the bundle every page loads. The
 * browser code of Docusaurus imports a few helpers from
 * `@docusaurus/utils-common`, whose CommonJS index requires all of tslib for
 * one helper, and a `require` cannot be tree-shaken. In the browser build
 * that index is swapped for ./utilsCommon.js, which re-exports the same names
 * from the package's own files.
 */
export default function utilsCommonWithoutTslib(): Plugin {
  return swapInBrowserBuild(
    'utils-common-without-tslib',
    /^@docusaurus\/utils-common$/,
    path.join(__dirname, 'utilsCommon.js'),
  );
}
