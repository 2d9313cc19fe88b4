import type {Plugin} from '@docusaurus/types';

/**
 * `docusaurus start` sends its bundles with no validator (no ETag, no Last-Modified), so every
 * page load fetches them whole (main.js is about 5 MB of unminified code) and the browser compiles
 * them again. With an ETag a reload asks "changed?" and gets 304 Not Modified until a rebuild
 * changes the code: the browser keeps its copy and its compiled code. And it sends them
 * uncompressed: on a local connection, gzipping 5 MB for each load costs both ends more processor
 * than it saves. Measured here: a docs page loaded again in the same tab
 * 2.05 -> 0.7-1.1 core-seconds, a fresh profile's first load 3.8 -> 2.6. Only the dev server; a
 * build has no server (its host's headers are build/_headers).
 */
export default function devServerCache(): Plugin {
  return {
    name: 'dev-server-cache',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      // Docusaurus merges `devServer` into its dev server's options (not in the Configuration type).
      return {devServer: {compress: false, devMiddleware: {etag: 'weak'}}} as object;
    },
  };
}
