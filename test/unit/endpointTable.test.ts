/**
 * worker/README.md's endpoint table is the one the contract's OpenAPI document makes: an endpoint
 * added to the worker (and so to the contract: test/worker/contract.test.ts) and not to the table,
 * or a row edited by hand, fails here. `npm run endpoints` writes it again.
 */
import fs from 'node:fs';
import {ENDPOINTS} from '../../src/config/contract';
import {openApiPath} from '../../src/config/openApi';
import {endpointTable, README, withTable} from '../../scripts/endpointTable';

const readme = fs.readFileSync(README, 'utf8');

test('the table in worker/README.md is the one the contract makes (npm run endpoints writes it)', () => {
  expect(readme).toBe(withTable(readme));
});

test('the table has a row for every endpoint of the contract', () => {
  const rows = endpointTable().split('\n').slice(2);
  // A row's first cell: `GET /userHasPaid?userId=`.
  const listed = rows.map((row) => row.slice(2, row.indexOf(' | ')).replace(/\?.*/, '')).sort();
  expect(listed).toEqual(
    Object.values(ENDPOINTS)
      .map(({method, path}) => `${method} ${openApiPath(path)}`)
      .sort(),
  );
});
