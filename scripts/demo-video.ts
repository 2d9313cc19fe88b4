/**
 * Records the demo video shown in the hero: a tour of this very site, one
 * scene every few seconds, one scene a caption of
 * src/components/landing/Hero/demoCaptions.ts (the build writes the captions
 * file from those). Needs ffmpeg (`apt-get install -y ffmpeg`); run
 * `npm run demo-video` after changing the landing page or the product's name.
 */
import {execFileSync} from 'node:child_process';
import {mkdirSync, rmSync} from 'node:fs';
import path from 'node:path';
import type {Page} from 'playwright-core';
import {DEMO_CAPTIONS, SECONDS_PER_SCENE} from '../src/components/landing/Hero/demoCaptions';
import {landing} from '../src/config';
import {launchChromium} from './support/chromium';
import {buildSite, ROOT} from './support/site';
import {serveStatic} from './support/staticServer';

/** What the browser shows while a caption is on screen. */
type Scene = (page: Page, base: string) => Promise<void>;

async function scrollTo(page: Page, id: string) {
  await page.evaluate((target) => document.getElementById(target)!.scrollIntoView(), id);
  await page.waitForTimeout(300);
}

/** One scene for each of DEMO_CAPTIONS, in order. */
const scenes: Scene[] = [
  async (page, base) => {
    await page.goto(`${base}/`);
  },
  (page) => scrollTo(page, 'features'),
  async (page) => {
    await page.getByRole('tab', {name: 'Payments'}).click();
  },
  (page) => scrollTo(page, 'pricing'),
  async (page) => {
    await scrollTo(page, 'faq');
    await page.getByRole('button', {name: landing.faq.items[0].question}).click();
  },
  async (page, base) => {
    await page.goto(`${base}/docs`);
  },
];

async function main() {
  if (scenes.length !== DEMO_CAPTIONS.length)
    throw new Error(`${scenes.length} scenes for ${DEMO_CAPTIONS.length} captions: give each caption its scene.`);
  const work = path.join(ROOT, '.bench', 'demo');
  rmSync(work, {recursive: true, force: true});
  mkdirSync(work, {recursive: true});
  await buildSite(path.join(work, 'site'), {});
  const server = await serveStatic(path.join(work, 'site'));
  const browser = await launchChromium();
  const page = await browser.newPage({viewport: {width: 1280, height: 720}});
  try {
    for (const [index, scene] of scenes.entries()) {
      await scene(page, server.url);
      await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
      await page.screenshot({path: path.join(work, `scene${String(index).padStart(2, '0')}.png`)});
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const out = path.join(ROOT, 'static', 'video');
  mkdirSync(out, {recursive: true});
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-framerate',
    `1/${SECONDS_PER_SCENE}`,
    '-i',
    path.join(work, 'scene%02d.png'),
    '-vf',
    'fps=12,format=yuv420p',
    '-c:v',
    'libvpx-vp9',
    '-b:v',
    '0',
    '-crf',
    '42',
    '-row-mt',
    '1',
    path.join(out, 'demo.webm'),
  ]);
  console.log(`Demo video written to static/video/ (${scenes.length} scenes; the build writes their captions).`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
