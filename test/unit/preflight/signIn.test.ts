/**
 * @jest-environment node
 *
 * `npm run preflight`'s sign-in lines: the site's and the worker's settings name one real project
 * and no emulator. One misconfiguration per test.
 */
import {checkSignIn} from '../../../scripts/preflight/signIn';
import {DEFAULT_EMULATOR_HOST, DEFAULT_FIREBASE_PROJECT} from '../../../src/buildTime/siteSettings';
import {offlineServiceAccount} from '../../../scripts/support/offlineServiceAccount';
import {linesOf, PROJECT} from './readyDeploy';

let serviceAccount: string;
beforeAll(async () => {
  serviceAccount = await offlineServiceAccount(PROJECT);
});

const site = {FIREBASE_API_KEY: 'AIza-preflight', FIREBASE_PROJECT_ID: PROJECT, FIREBASE_APP_ID: '1:2:web:3'};
const worker = () => ({FIREBASE_PROJECT_ID: PROJECT, FIREBASE_SERVICE_ACCOUNT: serviceAccount});
const check = (siteVars: Record<string, string> = {}, workerVars: Record<string, string> = {}) =>
  checkSignIn({site: {...site, ...siteVars}, worker: {...worker(), ...workerVars}, env: 'site'});

it('passes one real Firebase project on both sides', () => {
  expect(check()).toEqual([{status: 'ok', label: expect.stringContaining(`Firebase project ${PROJECT}`)}]);
});

it("fails the emulator's demo project, on the site and on the worker", async () => {
  const demo = {FIREBASE_PROJECT_ID: DEFAULT_FIREBASE_PROJECT};
  const failures = linesOf(
    check(demo, {...demo, FIREBASE_SERVICE_ACCOUNT: await offlineServiceAccount(DEFAULT_FIREBASE_PROJECT)}),
    'fail',
  );
  expect(failures).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(
        `the site's FIREBASE_PROJECT_ID is ${DEFAULT_FIREBASE_PROJECT}, the emulator's demo project`,
      ),
    }),
    expect.objectContaining({
      label: expect.stringContaining(
        `the worker's FIREBASE_PROJECT_ID is ${DEFAULT_FIREBASE_PROJECT}, not a real project`,
      ),
    }),
  ]);
});

it('fails a site signing in to another project than the worker verifies', () => {
  expect(linesOf(check({FIREBASE_PROJECT_ID: 'other-project'}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`the site signs in to other-project but the worker verifies tokens of ${PROJECT}`),
    }),
  ]);
});

it('fails a site built without a Firebase web config (it would use the emulator)', () => {
  expect(linesOf(check({FIREBASE_API_KEY: ''}), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('no Firebase web config')}),
  ]);
});

it('fails an emulator host set for the build', () => {
  expect(linesOf(check({FIREBASE_AUTH_EMULATOR_HOST: DEFAULT_EMULATOR_HOST}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining("FIREBASE_AUTH_EMULATOR_HOST is set for the site's build"),
      fix: expect.stringContaining('unset FIREBASE_AUTH_EMULATOR_HOST'),
    }),
  ]);
});

it('fails an emulator host set for the worker', () => {
  expect(linesOf(check({}, {FIREBASE_AUTH_EMULATOR_HOST: DEFAULT_EMULATOR_HOST}), 'fail')).toEqual([
    expect.objectContaining({label: expect.stringContaining('FIREBASE_AUTH_EMULATOR_HOST is set for the worker')}),
  ]);
});

it('fails a service account of another project', async () => {
  expect(linesOf(check({}, {FIREBASE_SERVICE_ACCOUNT: await offlineServiceAccount('other-project')}), 'fail')).toEqual([
    expect.objectContaining({
      label: expect.stringContaining(`the service account belongs to other-project, not ${PROJECT}`),
    }),
  ]);
});

it('fails a site and a worker on different providers', () => {
  expect(check({AUTH_PROVIDER: 'supabase'})).toEqual([
    expect.objectContaining({
      status: 'fail',
      label: expect.stringContaining('the site signs in with supabase (.env) but the worker checks firebase tokens'),
    }),
  ]);
});

describe('Supabase', () => {
  const supabase = {AUTH_PROVIDER: 'supabase', SUPABASE_URL: 'https://preflight.supabase.co'};
  const workerVars = {...supabase, SUPABASE_SERVICE_ROLE_KEY: 'service-role', SUPABASE_JWT_SECRET: 'jwt-secret'};

  it('passes the same project URL and its keys on both sides', () => {
    expect(checkSignIn({site: {...supabase, SUPABASE_ANON_KEY: 'anon'}, worker: workerVars, env: 'site'})).toEqual([
      {status: 'ok', label: expect.stringContaining('Supabase')},
    ]);
  });

  it('fails a missing service-role key', () => {
    expect(
      linesOf(
        checkSignIn({
          site: {...supabase, SUPABASE_ANON_KEY: 'anon'},
          worker: {...workerVars, SUPABASE_SERVICE_ROLE_KEY: ''},
          env: 'site',
        }),
        'fail',
      ),
    ).toEqual([expect.objectContaining({label: expect.stringContaining('SUPABASE_SERVICE_ROLE_KEY is not set')})]);
  });

  it('warns, not fails, for keys set on Cloudflare whose values this machine lacks (a redeploy)', () => {
    const onCloudflare = ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_JWT_SECRET'];
    const lines = checkSignIn({
      site: {...supabase, SUPABASE_ANON_KEY: 'anon'},
      worker: {AUTH_PROVIDER: 'supabase'},
      env: 'site',
      onCloudflare,
    });
    expect(linesOf(lines, 'fail')).toEqual([]);
    expect(linesOf(lines, 'warn').map((line) => line.label)).toEqual([
      expect.stringContaining('Sign-in: not asked: SUPABASE_URL is set on Cloudflare'),
      expect.stringContaining('Sign-in: not asked: SUPABASE_SERVICE_ROLE_KEY is set on Cloudflare'),
    ]);
  });
});
