import {Hono} from 'hono';
import {API_PATHS} from '../../src/config/api';
import {openApiDocument} from '../../src/config/openApi';
import type {AppEnv} from './app';

/** Written once an isolate: the document is the contract's, the same for every caller and every request. */
let document: string | undefined;

/**
 * The API's OpenAPI 3.1 document (src/config/openApi.ts), for tools and people who call the worker.
 * Public and static: it says only what the repository's contract says, nothing of this worker's
 * settings or data, and costs no D1 or outside call, so a cache may keep it an hour.
 */
export const openApiRoutes = new Hono<AppEnv>().get(API_PATHS.openApi, (c) => {
  document ??= JSON.stringify(openApiDocument());
  return c.body(document, 200, {'content-type': 'application/json', 'cache-control': 'public, max-age=3600'});
});
