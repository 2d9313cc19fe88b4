import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/**
 * Keeps Prism out of the bundle every page loads. The classic theme registers
 * the extra code languages from a client module, which drags Prism (~25 KB
 * gzipped) into `main` even for the landing page, where no code is shown.
 * This swaps that client module for an empty one;
 * src/theme/CodeBlock/Content/Highlighted registers the languages instead, and
 * src/theme/CodeBlock/Content loads it only where the browser has to highlight
 * code itself: after a client-side navigation (a page loaded from the server
 * keeps the server's highlighted HTML).
 */
export default function prismOnDemand(): Plugin {
  return {
    name: 'prism-on-demand',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(
            /@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/,
            path.join(__dirname, 'noClientModule.js'),
          ),
        ],
      };
    },
  };
}
