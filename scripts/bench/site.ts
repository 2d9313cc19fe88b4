/**
 * `npm run bench`: what the landing page costs a visitor before they
 * interact, next to the stock Docusaurus classic template built in the same
 * run with the same packages, and how long each build takes.
 *
 * It builds both sites cold, serves them on loopback, loads `/` in Chromium
 * and gzips every script and stylesheet the page fetched until it went idle
 * (the HTML's own and the route chunks; link prefetches for other pages are
 * not counted). It exits 1 when the budget is broken.
 */
import {rmSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {launchChromium} from '../support/chromium';
import {buildSite, ROOT, stockTemplate} from '../support/site';
import {serveStatic} from '../support/staticServer';

const BUDGET = {scriptKB: 130, styleKB: 20};
/** Strings only the auth and payment SDKs carry; none may load before interaction. */
const SDK_MARKERS: Record<string, string[]> = {
  firebase: ['identitytoolkit.googleapis.com', 'securetoken.googleapis.com'],
  'supabase-js': ['GoTrueClient', 'supabase.co'],
  stripe: ['js.stripe.com'],
};

interface Weight {
  scripts: number;
  styles: number;
  files: number;
  sdks: string[];
}

const kb = (bytes: number) => bytes / 1024;

async function weighHome(dir: string): Promise<Weight> {
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  const weight: Weight = {scripts: 0, styles: 0, files: 0, sdks: []};
  const pending: Array<Promise<void>> = [];
  try {
    const page = await browser.newPage({viewport: {width: 1280, height: 800}});
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if ((type !== 'script' && type !== 'stylesheet') || !response.url().startsWith(server.url)) return;
      pending.push(
        response.body().then((body) => {
          const gzipped = gzipSync(body).length;
          weight.files += 1;
          if (type === 'script') weight.scripts += gzipped;
          else weight.styles += gzipped;
          const text = body.toString('utf8');
          for (const [sdk, markers] of Object.entries(SDK_MARKERS)) {
            if (markers.some((marker) => text.includes(marker)) && !weight.sdks.includes(sdk)) weight.sdks.push(sdk);
          }
        }),
      );
    });
    await page.goto(`${server.url}/`, {waitUntil: 'networkidle'});
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
  } finally {
    await browser.close();
    await server.close();
  }
  return weight;
}

function timedColdBuild(siteDir: string, outDir: string): number {
  rmSync(path.join(siteDir, 'node_modules', '.cache'), {recursive: true, force: true});
  rmSync(path.join(siteDir, '.docusaurus'), {recursive: true, force: true});
  const start = process.hrtime.bigint();
  buildSite(outDir, {}, siteDir);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function row(name: string, weight: Weight, seconds: number): string {
  return `${name.padEnd(26)}${kb(weight.scripts).toFixed(1).padStart(12)}${kb(weight.styles).toFixed(1).padStart(12)}${String(weight.files).padStart(8)}${seconds.toFixed(1).padStart(12)}`;
}

async function main() {
  const benchDir = path.join(ROOT, '.bench');
  const stockDir = path.join(benchDir, 'stock');
  stockTemplate(stockDir);

  console.log('Building the stock Docusaurus classic template (cold)…');
  const stockSeconds = timedColdBuild(stockDir, path.join(benchDir, 'stock-build'));
  console.log('Building Slipway (cold)…');
  const siteSeconds = timedColdBuild(ROOT, path.join(benchDir, 'site-build'));

  const stock = await weighHome(path.join(benchDir, 'stock-build'));
  const site = await weighHome(path.join(benchDir, 'site-build'));

  console.log(`\nPage / before interaction, gzipped (1 KB = 1024 bytes)\n`);
  console.log(`${''.padEnd(26)}${'script KB'.padStart(12)}${'style KB'.padStart(12)}${'files'.padStart(8)}${'build s'.padStart(12)}`);
  console.log(row('Slipway', site, siteSeconds));
  console.log(row('stock classic template', stock, stockSeconds));
  console.log(
    `${'Slipway / stock'.padEnd(26)}${(site.scripts / stock.scripts).toFixed(2).padStart(12)}${(site.styles / stock.styles).toFixed(2).padStart(12)}${''.padStart(8)}${(siteSeconds / stockSeconds).toFixed(2).padStart(12)}`,
  );

  const problems: string[] = [];
  if (kb(site.scripts) > BUDGET.scriptKB) problems.push(`script ${kb(site.scripts).toFixed(1)} KB > ${BUDGET.scriptKB} KB`);
  if (kb(site.styles) > BUDGET.styleKB) problems.push(`style ${kb(site.styles).toFixed(1)} KB > ${BUDGET.styleKB} KB`);
  if (site.sdks.length) problems.push(`auth or payment SDK code loaded before interaction: ${site.sdks.join(', ')}`);
  console.log(`\nBudget for /: script ≤ ${BUDGET.scriptKB} KB, style ≤ ${BUDGET.styleKB} KB, no auth or payment SDK before interaction`);
  console.log(problems.length ? `OVER BUDGET: ${problems.join('; ')}` : 'Within budget.');
  process.exitCode = problems.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
