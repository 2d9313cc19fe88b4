/**
 * `npm run endpoints`: writes the endpoint table of `worker/README.md`, between its markers, from the
 * OpenAPI document the contract makes (src/config/openApi.ts). `test/unit/endpointTable.test.ts`
 * fails when the README's table is not what this writes, so an endpoint cannot go unlisted.
 */
import fs from 'node:fs';
import path from 'node:path';
import {openApiDocument} from '../src/config/openApi';

export const README = path.join(__dirname, '..', 'worker', 'README.md');
const START = '<!-- endpoints: written by `npm run endpoints` from src/config/contract.ts -->';
const END = '<!-- endpoints end -->';

interface Operation {
  summary: string;
  'x-access': string;
  parameters: {name: string; in: string}[];
}

/** A table cell: a `|` would end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The table, a row per operation in the contract's order: method and path (with its query), who may call it, what it does. */
export function endpointTable(): string {
  const rows = Object.entries(openApiDocument().paths).flatMap(([route, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => {
      const query = operation.parameters.filter((parameter) => parameter.in === 'query');
      const search = query.length ? `?${query.map(({name}) => `${name}=`).join('&')}` : '';
      return `| ${method.toUpperCase()} ${route}${search} | ${cell(operation['x-access'])} | ${cell(operation.summary)} |`;
    }),
  );
  return ['| method and path | who may call it | what it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README with its table between the markers as the contract says it. */
export function withTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`worker/README.md has no markers ${START} … ${END}`);
  return `${readme.slice(0, start + START.length)}\n\n${endpointTable()}\n\n${readme.slice(end)}`;
}

if (require.main === module) {
  fs.writeFileSync(README, withTable(fs.readFileSync(README, 'utf8')));
  console.log('worker/README.md: endpoint table written from the contract');
}
