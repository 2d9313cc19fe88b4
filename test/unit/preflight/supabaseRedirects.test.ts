/**
 * @jest-environment node
 *
 * `npm run preflight`'s Supabase line: the project's URL Configuration lets its Auth send magic
 * links and password resets back to the site's pages. Against a stand-in of Supabase's Management
 * API (`GET /v1/projects/{ref}/config/auth`), one misconfiguration per test.
 */
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {ROUTES} from '../../../src/config';
import {checkSupabaseRedirects, type SupabaseAuthConfig} from '../../../scripts/preflight/supabaseRedirects';

const SITE_URL = 'https://shop.example.com';
const REF = 'abcdefghijklmnop';
const TOKEN = 'sbp_preflight_token';
let config: SupabaseAuthConfig;
let server: http.Server;
let apiUrl: string;
const asked: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    const send = (status: number, body: unknown) =>
      response.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(body));
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return send(401, {message: 'Unauthorized'});
    if (request.url !== `/v1/projects/${REF}/config/auth`) return send(404, {message: 'Project not found'});
    return send(200, config);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  config = {site_url: 'http://localhost:3000', uri_allow_list: `${SITE_URL}/**`};
});

const site = (vars: Record<string, string> = {}) => ({
  AUTH_PROVIDER: 'supabase',
  SUPABASE_URL: `https://${REF}.supabase.co`,
  SUPABASE_ACCESS_TOKEN: TOKEN,
  ...vars,
});
const check = (vars?: Record<string, string>) => checkSupabaseRedirects({site: site(vars), siteUrl: SITE_URL, apiUrl});

test('ready: the allow list holds the site, so both pages are allowed', async () => {
  expect(await check()).toEqual([{status: 'ok', label: expect.stringContaining(SITE_URL)}]);
  config = {site_url: SITE_URL, uri_allow_list: ''};
  expect((await check())[0]!.status).toBe('ok');
  config = {site_url: null, uri_allow_list: `${SITE_URL}${ROUTES.finishSignIn}, ${SITE_URL}${ROUTES.newPassword}`};
  expect((await check())[0]!.status).toBe('ok');
});

test('the site is neither the Site URL nor in the Redirect URLs: fails, naming the pages and the settings page', async () => {
  config = {site_url: 'http://localhost:3000', uri_allow_list: 'https://other.example.com/**'};
  const [line] = await check();
  expect(line).toMatchObject({status: 'fail', label: expect.stringContaining(`${SITE_URL}${ROUTES.finishSignIn}`)});
  expect(line!.fix).toContain('URL Configuration');
});

test('only one page allowed: the other is named', async () => {
  config = {site_url: null, uri_allow_list: `${SITE_URL}${ROUTES.finishSignIn}`};
  const [line] = await check();
  expect(line).toMatchObject({status: 'fail', label: expect.stringContaining(ROUTES.newPassword)});
  expect(line!.label).not.toContain(ROUTES.finishSignIn);
});

test('a token Supabase refuses fails with where to make one; an unknown project fails', async () => {
  expect(await check({SUPABASE_ACCESS_TOKEN: 'sbp_wrong'})).toEqual([
    expect.objectContaining({status: 'fail', fix: expect.stringContaining('Access Tokens')}),
  ]);
  expect(await check({SUPABASE_URL: 'https://zzzzzzzzzzzzzzzz.supabase.co'})).toEqual([
    expect.objectContaining({status: 'fail', label: expect.stringContaining('no project')}),
  ]);
});

test('no access token: a warning with what to check by hand, and Supabase is not asked', async () => {
  const before = asked.length;
  const [line] = await checkSupabaseRedirects({site: site({SUPABASE_ACCESS_TOKEN: ''}), siteUrl: SITE_URL, apiUrl});
  expect(line).toMatchObject({status: 'warn', fix: expect.stringContaining(`${SITE_URL}${ROUTES.finishSignIn}`)});
  expect(asked.length).toBe(before);
});

test('a site that signs in with Firebase gets no Supabase line', async () => {
  expect(await checkSupabaseRedirects({site: site({AUTH_PROVIDER: 'firebase'}), siteUrl: SITE_URL, apiUrl})).toEqual(
    [],
  );
});
