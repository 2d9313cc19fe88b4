import type {Plugin} from '@docusaurus/types';

/**
 * The CSS of components the server never renders: the search bar, which
 * src/theme/SearchBar loads lazily, the spinner it and the search page show
 * while the index loads, the dashboard, the seller's console and the affiliate's own part of
 * /affiliates, which show only after sign-in, and the console's frame, which its page draws once its scripts run.
 */
const CLIENT_ONLY_CSS = [
  /docusaurus-search-local[\\/].*[\\/](SearchBar[\\/]SearchBar|LoadingRing[\\/]LoadingRing)\.module\.css$/,
  /[\\/]src[\\/]components[\\/](screens[\\/](Dashboard|Admin)|layout[\\/]ConsoleLayout)[\\/].*\.css$/,
  // The affiliate page's signed-in part; its pitch and terms are rendered on the server (styles.module.css).
  /[\\/]src[\\/]components[\\/]screens[\\/]Affiliates[\\/]account\.module\.css$/,
];

/**
 * Docusaurus merges the CSS of every page into one file that every page
 * loads, because the server-rendered HTML links only that file. CSS that no
 * server render needs can stay with its component's chunk instead: the
 * browser applies it before the chunk's code runs, so nothing shows unstyled,
 * and the landing page does not carry it. test/browser/stylesheets.test.ts
 * fails if a server-rendered page uses a class kept out of the shared file.
 */
export default function clientOnlyStyles(): Plugin {
  return {
    name: 'client-only-styles',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        optimization: {
          splitChunks: {
            cacheGroups: {
              styles: {
                test: (module: {nameForCondition(): string | null}) => {
                  const file = module.nameForCondition() ?? '';
                  return !CLIENT_ONLY_CSS.some((pattern) => pattern.test(file));
                },
              },
            },
          },
        },
      };
    },
  };
}
