/**
 * @jest-environment node
 *
 * Where `npm run preflight` takes the worker's values from, as the Deployment page tells a seller
 * to give them: the file they uploaded with `wrangler secret bulk`, the Firebase service account
 * from its JSON file in the shell (it is not in that file), and worker/wrangler.jsonc's vars over both.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {readSettings} from '../../../scripts/preflight/settings';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-settings-'));
});
afterAll(() => rmSync(dir, {recursive: true, force: true}));

// A service account's JSON as Firebase downloads it: several lines.
const SERVICE_ACCOUNT = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'your-project',
    private_key: '-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----\n',
  },
  null,
  2,
);

it("reads the secrets file, the service account from the shell, and keeps wrangler.jsonc's vars over both", () => {
  const secretsFile = path.join(dir, 'production-secrets.env');
  writeFileSync(
    secretsFile,
    ['STRIPE_SECRET_KEY=sk_live_from_file', 'GITHUB_REPO=you/your-kit', 'SITE_URL=https://not-the-var.example'].join(
      '\n',
    ),
  );
  const settings = readSettings({
    root: dir,
    env: 'site',
    secretsFile,
    processEnv: {FIREBASE_SERVICE_ACCOUNT: SERVICE_ACCOUNT, GITHUB_REPO: 'you/from-the-shell', HOME: '/home/you'},
  });
  expect(settings.worker.STRIPE_SECRET_KEY).toBe('sk_live_from_file');
  expect(JSON.parse(settings.worker.FIREBASE_SERVICE_ACCOUNT!)).toMatchObject({project_id: 'your-project'});
  // The shell wins over the file; a shell variable the worker does not read stays out.
  expect(settings.worker.GITHUB_REPO).toBe('you/from-the-shell');
  expect(settings.worker.HOME).toBeUndefined();
  // As on Cloudflare, the committed vars win: the file cannot move SITE_URL.
  expect(settings.worker.SITE_URL).toBe(String(settings.config.vars.SITE_URL));
});

it('refuses a secrets file that does not exist, naming it', () => {
  const missing = path.join(dir, 'nowhere.env');
  expect(() => readSettings({root: dir, env: 'site', secretsFile: missing, processEnv: {}})).toThrow(
    `--secrets ${missing}: no such file`,
  );
});
