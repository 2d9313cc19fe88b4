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

// These files cannot import src/config: each names the product as the config does, or this fails
// after a rename and says which file to change.
describe('the files that cannot read the config agree with it', () => {
  it.each(['', 'site'])('worker/wrangler.jsonc (env %s): the demo project and the D1 database', (env) => {
    const config = readWorkerConfig(path.join(ROOT, 'worker', 'wrangler.jsonc'), env);
    expect(config.vars.FIREBASE_PROJECT_ID).toBe(emulatorProject);
    expect(config.d1_databases.map((database) => database.database_name)).toEqual([serviceName]);
  });

  it("worker/wrangler.jsonc: the Workers' names (the API alone, and the one-Worker site)", () => {
    const names = [...read('worker/wrangler.jsonc').matchAll(/^\s*"name": "([^"]*)"/gm)].map((match) => match[1]);
    expect(names).toEqual([`${serviceName}-worker`, serviceName]);
  });

  it('worker/.dev.vars.example and .env.example: the demo project', () => {
    expect(read('worker/.dev.vars.example')).toMatch(new RegExp(`^FIREBASE_PROJECT_ID=${emulatorProject}$`, 'm'));
    expect(read('.env.example')).toContain(`project ${emulatorProject} on`);
  });

  it('the stylesheets: custom properties are named for what they are, not after the product', () => {
    const sheets = (readdirSync(path.join(ROOT, 'src'), {recursive: true}) as string[]).filter((file) => file.endsWith('.css'));
    expect(sheets.length).toBeGreaterThan(10);
    expect(sheets.filter((file) => read(path.join('src', file)).includes(`--${serviceName}-`))).toEqual([]);
  });
});
