import path from 'node:path';
import {buildSync} from 'esbuild';
import type {Hono} from 'hono';
import {SAME_ORIGIN_PREFIX} from '../../src/config/api';

const ROOT = path.join(__dirname, '..', '..');

/**
 * The worker's Hono app (worker/src/routes.ts), loaded in Node. Some of its packages ship ES modules
 * only (with no `require` entry), which jest's CommonJS cannot load, so esbuild bundles the app into
 * one CommonJS module first, with the conditions workerd resolves by, as wrangler does.
 */
export function workerApp(): Hono {
  const [bundle] = buildSync({
    entryPoints: [path.join(ROOT, 'worker', 'src', 'routes.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    conditions: ['workerd', 'worker', 'import'],
    write: false,
    logLevel: 'error',
  }).outputFiles;
  const module = {exports: {} as {app: Hono}};
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the bundle esbuild just built from our own source
  new Function('module', 'exports', 'require', bundle.text)(module, module.exports, require);
  return module.exports.app;
}

/**
 * Every `METHOD path` the app answers, once: without its middleware (Hono lists `use` as ALL) and
 * without the second mount of the browser's routes under SAME_ORIGIN_PREFIX (`/api/prices` is
 * `/prices`), which index.ts makes of each one alike.
 */
export function servedRoutes(app: Hono): string[] {
  const routes = new Set(
    app.routes.filter((route) => route.method !== 'ALL').map(({method, path}) => `${method} ${path}`),
  );
  const mirrors = [...routes].filter((route) => {
    const [method, path] = route.split(' ');
    if (path === SAME_ORIGIN_PREFIX) return routes.has(`${method} /`);
    return (
      path.startsWith(`${SAME_ORIGIN_PREFIX}/`) && routes.has(`${method} ${path.slice(SAME_ORIGIN_PREFIX.length)}`)
    );
  });
  return [...routes].filter((route) => !mirrors.includes(route)).sort();
}
