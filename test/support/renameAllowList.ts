/**
 * Old facts a renamed site may keep, each because it cannot come from src/config: the rename
 * test (test/browser/rename.test.ts) fails on any other, and on an entry nothing matches any
 * more. Each entry names the words (`Leak.token`) it lets through, and why.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {serviceName} from '../../src/config';
import type {AllowedLeak} from './renamedSite';

/** The names worker/wrangler.jsonc gives the Worker of each layout and their D1 database. */
function wranglerNames(): {worker: string; siteWorker: string; database: string} {
  const text = readFileSync(path.join(__dirname, '..', '..', 'worker', 'wrangler.jsonc'), 'utf8');
  // JSON with comments and trailing commas, as Wrangler writes it.
  const json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')) as {
    name: string;
    d1_databases: Array<{database_name: string}>;
    env: {site: {name: string}};
  };
  return {worker: json.name, siteWorker: json.env.site.name, database: json.d1_databases[0]!.database_name};
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wrangler = wranglerNames();
/** The product's name as today's service names spell it (before the test renames the copy). */
const service = serviceName;

export const RENAME_ALLOWED: AllowedLeak[] = [
  {
    token: new RegExp(`(^|/)${escape(wrangler.worker)}(\\.|$)`),
    reason:
      "the two-origin Worker's name, the top-level `name` of worker/wrangler.jsonc, in its address and its health answer: " +
      'Wrangler reads that file, not src/config, and the Deployment page quotes it',
  },
  {
    token: new RegExp(`(^|/)${escape(wrangler.siteWorker)}\\.your-subdomain\\.workers\\.dev`),
    reason: "the one-origin Worker's workers.dev address, named by `env.site.name` of worker/wrangler.jsonc",
  },
  {
    // Case-sensitive and the whole word: the product's name as the site shows it is not this.
    token: new RegExp(`^(${escape(wrangler.siteWorker)}|${escape(wrangler.database)})$`),
    reason:
      "the one-origin Worker's and the D1 database's names in worker/wrangler.jsonc (`env.site.name`, `database_name`), " +
      'which `wrangler d1 create` and `wrangler d1 execute` take: Wrangler reads them from that file, not src/config',
  },
  {
    token: new RegExp(`^demo-${escape(service)}$`),
    reason:
      "the Firebase Auth emulator's demo project as worker/wrangler.jsonc sets it (`FIREBASE_PROJECT_ID`), quoted by the " +
      'Deployment page: Wrangler reads that file, not src/config, and local mode passes the project derived from the ' +
      'config to the worker itself; a seller replaces it with the real project before deploying (the preflight refuses demo-)',
  },
];
