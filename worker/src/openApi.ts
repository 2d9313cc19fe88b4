import {Hono} from 'hono';
import {API_PATHS} from '../../src/config/api';
import {openApiDocument} from '../../src/config/openApi';
import {isLoopbackHost} from './address';
import type {AppEnv} from './app';
import {settingsOf} from './settings';

/** Written once an isolate: the document is the contract's, the same for every caller and every request. */
let document: string | undefined;

/**
 * The API's OpenAPI 3.1 document (src/config/openApi.ts), for the developer who calls or changes
 * the worker: served by the dev server alone (a loopback SITE_URL, asked on loopback). It says only
 * what the repository's contract says, but the repository is what buyers pay for (its webhook
 * paths, rate limits, the console's requests): a deployed worker answers 404, as for any path it
 * does not serve. It costs no D1 or outside call; `no-cache`, as a contract being edited changes it.
 */
export const openApiRoutes = new Hono<AppEnv>().get(API_PATHS.openApi, (c) => {
  const onThisMachine =
    isLoopbackHost(new URL(settingsOf(c.env).siteOrigin).hostname) && isLoopbackHost(new URL(c.req.url).hostname);
  if (!onThisMachine) return c.notFound();
  document ??= JSON.stringify(openApiDocument());
  return c.body(document, 200, {'content-type': 'application/json', 'cache-control': 'no-cache'});
});
