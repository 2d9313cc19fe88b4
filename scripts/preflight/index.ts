/**
 * `npm run preflight`: asks every service a deploy relies on whether it is ready, and prints a
 * checklist; exits 1 on any failure. `npm run deploy` runs it first. See README.md beside this.
 *
 *   npm run preflight                                        the `site` environment, secrets from the shell
 *   npm run preflight -- --secrets ~/production-secrets.env  secret values from a dotenv file
 *   npm run preflight -- --env other                         another environment of worker/wrangler.jsonc
 */
import path from 'node:path';
import {parseArgs} from 'node:util';
import {exitCodeOf, formatChecklist, runChecks} from './runner';
import {readSettings, wranglerPendingMigrations, wranglerSecretNames} from './settings';

const ROOT = path.join(__dirname, '..', '..');

async function main() {
  const {values} = parseArgs({options: {secrets: {type: 'string'}, env: {type: 'string', default: 'site'}}});
  const env = values.env!;
  const settings = readSettings({
    root: ROOT,
    env,
    secretsFile: values.secrets && path.resolve(values.secrets),
    processEnv: process.env,
  });
  console.log(
    `Preflight: the services a deploy of env ${env} uses (worker/wrangler.jsonc, .env${values.secrets ? `, ${values.secrets}` : ''} and this shell)\n`,
  );
  const lines = await runChecks({
    settings,
    secretNames: () => wranglerSecretNames(env),
    pendingMigrations: () => wranglerPendingMigrations(env),
  });
  console.log(formatChecklist(lines));
  process.exit(exitCodeOf(lines));
}

main().catch((error: unknown) => {
  console.error(`Preflight could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
