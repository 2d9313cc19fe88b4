/**
 * @jest-environment node
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {appConfig} from '../../src/config';
import {emulatorProject, serviceName, storageKey, toServiceName} from '../../src/config/serviceName';
import {readWorkerConfig} from '../../scripts/preflight/settings';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the service name', () => {
  it('follows the product name: lower case, words joined by dashes', () => {
    expect(toServiceName('Launch Pad 2')).toBe('launch-pad-2');
    expect(toServiceName('  Ship.it!  ')).toBe('ship-it');
    expect(serviceName).toBe(toServiceName(appConfig.appName));
  });

  it("names the emulator's demo project and the browser's storage keys", () => {
    expect(emulatorProject).toBe(`demo-${serviceName}`);
    expect(storageKey('buyer')).toBe(`${serviceName}:buyer`);
  });
});

// These files cannot import src/config, and a rename need not touch them: local mode and the tests
// pass the emulator's project (above) to the worker themselves. They must agree with one another, so
// that a seller who renames them by hand and misses one hears which.
describe('the files that cannot read the config agree with one another', () => {
  const [api, site] = ['', 'site'].map((env) => readWorkerConfig(path.join(ROOT, 'worker', 'wrangler.jsonc'), env));

  it('worker/wrangler.jsonc: both layouts use one demo project and one D1 database', () => {
    expect(api!.vars.FIREBASE_PROJECT_ID).toMatch(/^demo-[a-z0-9-]+$/);
    expect(site!.vars.FIREBASE_PROJECT_ID).toBe(api!.vars.FIREBASE_PROJECT_ID);
    expect(site!.d1_databases.map((database) => database.database_name)).toEqual(
      api!.d1_databases.map((database) => database.database_name),
    );
  });

  it("worker/wrangler.jsonc: the two Workers' names differ (the API alone, and the one-Worker site)", () => {
    const names = [...read('worker/wrangler.jsonc').matchAll(/^\s*"name": "([^"]*)"/gm)].map((match) => match[1]);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
  });

  it('worker/.dev.vars.example and .env.example: the same demo project as worker/wrangler.jsonc', () => {
    const project = api!.vars.FIREBASE_PROJECT_ID;
    expect(read('worker/.dev.vars.example')).toMatch(new RegExp(`^FIREBASE_PROJECT_ID=${project}$`, 'm'));
    expect(read('.env.example')).toContain(`project ${project} on`);
  });

  it('the stylesheets: custom properties are named for what they are, not after the product', () => {
    const sheets = (readdirSync(path.join(ROOT, 'src'), {recursive: true}) as string[]).filter((file) =>
      file.endsWith('.css'),
    );
    expect(sheets.length).toBeGreaterThan(10);
    expect(sheets.filter((file) => read(path.join('src', file)).includes(`--${serviceName}-`))).toEqual([]);
  });
});
