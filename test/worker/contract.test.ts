/**
 * The contract (src/config/contract.ts) states every endpoint once: the worker serves exactly those,
 * so a route added without its entry, or an entry whose route went, fails here.
 */
import {ENDPOINTS} from '../../src/config/contract';
import {servedRoutes, workerApp} from './honoRoutes';

const app = workerApp();

test('every route the worker serves is an endpoint of the contract, and every endpoint is served', () => {
  const stated = Object.values(ENDPOINTS)
    .map(({method, path}) => `${method} ${path}`)
    .sort();
  expect(servedRoutes(app)).toEqual(stated);
});

test('the contract states each endpoint once', () => {
  const stated = Object.values(ENDPOINTS).map(({method, path}) => `${method} ${path}`);
  expect(new Set(stated).size).toBe(stated.length);
});
