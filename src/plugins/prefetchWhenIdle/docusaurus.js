// @docusaurus/core's lib/client/docusaurus.js (MIT, Docusaurus 3.10.2) with prefetch queued for idle
// time and a route's chunk names looked up in an index built once. See ./index.ts.
import {matchRoutes} from 'react-router-config';
import routesChunkNames from '@generated/routesChunkNames';
import routes from '@generated/routes';
import prefetchHelper from '@docusaurus/core/lib/client/prefetch';
import preloadHelper from '@docusaurus/core/lib/client/preload';
import flat from '@docusaurus/core/lib/client/flat';

const fetched = new Set();
/** Chunk URLs already prefetched: pages share most of their chunks, so each is fetched once. */
const prefetchedAssets = new Set();
const loaded = new Set();

// If the user is on a slow or constrained connection.
const isSlowConnection = () => navigator.connection?.effectiveType.includes('2g') || navigator.connection?.saveData;

const canPrefetch = (routePath) => !isSlowConnection() && !loaded.has(routePath) && !fetched.has(routePath);
const canPreload = (routePath) => !isSlowConnection() && !loaded.has(routePath);

/** Route path → its chunk names; a key of routesChunkNames is the path plus `-` and a hash. */
let chunksByRoute;
function chunkNamesOf(routePath) {
  if (!chunksByRoute) {
    chunksByRoute = new Map();
    for (const [routeNameWithHash, routeChunks] of Object.entries(routesChunkNames)) {
      const route = routeNameWithHash.replace(/-[^-]+$/, '');
      const names = chunksByRoute.get(route) ?? [];
      names.push(...Object.values(flat(routeChunks)));
      chunksByRoute.set(route, names);
    }
  }
  return chunksByRoute.get(routePath) ?? [];
}

function prefetchNow(routePath) {
  const matches = matchRoutes(routes, routePath);
  const chunkNamesNeeded = matches.flatMap((match) => chunkNamesOf(match.route.path));
  return Promise.all(
    chunkNamesNeeded.map((chunkName) => {
      // "__webpack_require__.gca" is injected by Docusaurus's ChunkAssetPlugin: a chunk name's URL.
      // eslint-disable-next-line camelcase, no-undef
      const chunkAsset = __webpack_require__.gca(chunkName);
      // A chunk merged into another has no asset of its own.
      if (chunkAsset && !chunkAsset.includes('undefined') && !prefetchedAssets.has(chunkAsset)) {
        prefetchedAssets.add(chunkAsset);
        return prefetchHelper(chunkAsset).catch(() => undefined);
      }
      return Promise.resolve();
    }),
  );
}

const whenIdle = (work) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(work, {timeout: 5000}) : setTimeout(() => work(), 200));
const queue = [];
let draining = false;

/** One queued prefetch at a time, while the browser says it has idle time left. */
function drain(deadline) {
  do {
    const routePath = queue.shift();
    if (routePath !== undefined) void prefetchNow(routePath);
  } while (queue.length > 0 && deadline && !deadline.didTimeout && deadline.timeRemaining() > 4);
  if (queue.length > 0) whenIdle(drain);
  else draining = false;
}

const prefetch = (routePath) => {
  if (!canPrefetch(routePath)) return false;
  fetched.add(routePath);
  queue.push(routePath);
  if (!draining) {
    draining = true;
    whenIdle(drain);
  }
  return true;
};

const preload = (routePath) => {
  if (!canPreload(routePath)) return false;
  loaded.add(routePath);
  return preloadHelper(routePath);
};

const docusaurus = {prefetch, preload};
// Mounted on window by the client entry, so frozen as the original is.
export default Object.freeze(docusaurus);
