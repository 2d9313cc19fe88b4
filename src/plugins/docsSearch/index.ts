import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The files of @easyops-cn/docusaurus-search-local's theme that this plugin replaces, with their stand-ins. */
const REPLACED: [RegExp, string][] = [
  [/docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]worker\.js$/, 'worker.js'],
  [
    /docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]SearchBar[\\/]EmptyTemplate\.js$/,
    'EmptyTemplate.js',
  ],
  [
    /docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]SearchPage[\\/]SearchPage\.jsx$/,
    'SearchPage.jsx',
  ],
];

/**
 * The docs' search keeps @easyops-cn/docusaurus-search-local (its offline index, one per docs
 * version, its search bar and search page) and changes what its options cannot: how results are
 * ranked (./rank.ts: any word counts, weighted by rarity and field, one page per suggestion first)
 * and what a query that matches nothing shows, in the bar (./noResults.ts) and on /search
 * (./SearchPage.jsx, which also gives that page a main landmark). It swaps the plugin's worker,
 * empty-result template and search page for ours at bundling time, as prismOnDemand does for Prism.
 */
export default function docsSearch(): Plugin {
  return {
    name: 'docs-search',
    configureWebpack(_config, _isServer, {currentBundler}) {
      return {
        plugins: REPLACED.map(
          ([original, file]) =>
            new currentBundler.instance.NormalModuleReplacementPlugin(original, path.join(__dirname, file)),
        ),
      };
    },
  };
}
