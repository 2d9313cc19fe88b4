/**
 * A docs page's `<FileExcerpt>` quote follows its file under the dev server (issue 23): the
 * quoted file is an input of the page (src/plugins/fileExcerptInputs.ts), so editing it compiles
 * the page again. Without that, the page kept the quote it was first compiled with, under
 * `npm start` and from the bundler's persistent cache. The site here is a small one of its own,
 * with the docs preset and the two plugins as the real site has them, so the test may edit the
 * quoted file freely.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {Browser} from 'playwright-core';
import {launchChromium} from '../../scripts/support/chromium';
import {freePort, waitForHttp} from '../../scripts/local/ports';
import {eventually, watchPage} from './helpers';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../..');
const SITE = path.join(ROOT, '.test-build', `file-excerpt-site-${process.pid}`);
const DOCUSAURUS = require.resolve('@docusaurus/core/bin/docusaurus.mjs');

const CONFIG = `
import remarkFileExcerpt from '../../src/buildTime/remarkFileExcerpt';
import fileExcerptInputs from '../../src/plugins/fileExcerptInputs';

export default {
  title: 'Quotes',
  url: 'http://localhost',
  baseUrl: '/',
  future: {v4: true},
  presets: [['classic', {docs: {routeBasePath: '/', remarkPlugins: [[remarkFileExcerpt, {siteDir: __dirname}]]}, blog: false, pages: false}]],
  plugins: [fileExcerptInputs],
};
`;

const PAGE = `---
slug: /
---

# Prices

<FileExcerpt file="prices.ts" parts={[['export const price']]} />
`;

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let siteUrl = '';

beforeAll(async () => {
  rmSync(SITE, {recursive: true, force: true});
  mkdirSync(path.join(SITE, 'docs'), {recursive: true});
  // The bundler reads the browsers to build for from package.json, as for the real site.
  const {browserslist} = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {browserslist: unknown};
  writeFileSync(
    path.join(SITE, 'package.json'),
    JSON.stringify({name: 'file-excerpt-site', private: true, browserslist}),
  );
  writeFileSync(path.join(SITE, 'docusaurus.config.ts'), CONFIG);
  writeFileSync(path.join(SITE, 'docs', 'index.mdx'), PAGE);
  writeFileSync(path.join(SITE, 'prices.ts'), 'export const price = 10;\n');
  const port = await freePort();
  siteUrl = `http://localhost:${port}/`;
  server = spawn(process.execPath, [DOCUSAURUS, 'start', '--port', String(port), '--host', 'localhost', '--no-open'], {
    cwd: SITE,
    // NODE_ENV is Docusaurus's to set: jest's "test" matches no browserslist entry.
    env: {...process.env, NODE_ENV: undefined, BROWSER: 'none', DOCUSAURUS_TELEMETRY_DISABLED: '1'},
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  for (const stream of [server.stdout!, server.stderr!])
    stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  await waitForHttp(siteUrl, {child: server, timeoutMs: 180_000}).catch((error: Error) => {
    throw new Error(`The small site's dev server did not start: ${error.message}\n${output}`);
  });
  browser = await launchChromium({offline: true});
});

afterAll(async () => {
  await browser?.close();
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  rmSync(SITE, {recursive: true, force: true});
});

it('shows the new text of a quoted file once the file changes, under the dev server', async () => {
  const page = await browser!.newPage();
  const {errors} = watchPage(page);
  await page.goto(siteUrl);
  const quote = page.getByRole('main').locator('pre');
  await eventually(
    () => quote.innerText(),
    (text) => expect(text).toContain('export const price = 10;'),
    60_000,
  );

  // Saved as an editor saves it, whole: the dev server, watching, would otherwise compile the
  // half-written file, log "Errors while compiling", and fail this test on a busy machine.
  writeFileSync(path.join(SITE, 'prices.ts.part'), 'export const price = 20;\n');
  renameSync(path.join(SITE, 'prices.ts.part'), path.join(SITE, 'prices.ts'));
  // Each reload gets what the dev server has compiled by then; it compiles the page again only
  // because the quoted file is one of its inputs.
  await eventually(
    async () => {
      await page.reload();
      return quote.innerText({timeout: 10_000});
    },
    (text) => expect(text).toContain('export const price = 20;'),
    90_000,
  );
  expect(errors).toEqual([]);
});
