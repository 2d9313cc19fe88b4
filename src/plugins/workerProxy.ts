import type {Plugin} from '@docusaurus/types';
import {SAME_ORIGIN_PREFIX} from '../config/api';

/**
 * The worker on the site's own origin in development: `docusaurus start` forwards
 * SAME_ORIGIN_PREFIX to the worker at WORKER_PROXY_TARGET, as a one-Worker deployment or a host's
 * rewrite does in production, so the site calls it with relative URLs (no CORS preflight) and
 * the anti-forgery cookie reaches it. `npm start -- --same-origin` sets it; unset, nothing
 * changes. It only ever applies to the dev server: a build has no server.
 */
export default function workerProxy(): Plugin {
  return {
    name: 'worker-proxy',
    configureWebpack(_config, isServer) {
      const target = process.env.WORKER_PROXY_TARGET?.trim();
      if (!target || isServer) return {};
      // Docusaurus merges `devServer` into its dev server's options (not in the Configuration type).
      return {devServer: {proxy: [{context: [SAME_ORIGIN_PREFIX], target}]}} as object;
    },
  };
}
