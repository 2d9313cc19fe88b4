/**
 * Records the demo video shown in the hero: a tour of this very site, one
 * scene every few seconds, with English captions. Needs ffmpeg
 * (`apt-get install -y ffmpeg`); run `npm run demo-video` after changing
 * the landing page.
 */
import {execFileSync} from 'node:child_process';
import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {Page} from 'playwright-core';
import {appConfig, landing} from '../src/config';
import {launchChromium} from './support/chromium';
import {buildSite, ROOT} from './support/site';
import {serveStatic} from './support/staticServer';

const SECONDS_PER_SCENE = 3;

interface Scene {
  caption: string;
  show: (page: Page, base: string) => Promise<void>;
}

async function scrollTo(page: Page, id: string) {
  await page.evaluate((target) => document.getElementById(target)!.scrollIntoView(), id);
  await page.waitForTimeout(300);
}

const scenes: Scene[] = [
  {caption: `${appConfig.appName}: a landing page that sells your app, ready on day one.`, show: async (page, base) => {
    await page.goto(`${base}/`);
  }},
  {caption: 'Feature tabs rotate by themselves and stop when the visitor picks one.', show: (page) => scrollTo(page, 'features')},
  {caption: 'Payments: Stripe Checkout sessions and webhooks, already wired.', show: async (page) => {
    await page.getByRole('tab', {name: 'Payments'}).click();
  }},
  {caption: 'Two plans, one-time payments, prices from a single config file.', show: (page) => scrollTo(page, 'pricing')},
  {caption: 'Answers before the question: an FAQ that opens one item at a time.', show: async (page) => {
    await scrollTo(page, 'faq');
    await page.getByRole('button', {name: landing.faq.items[0].question}).click();
  }},
  {caption: 'Documentation for every part, in the same repository.', show: async (page, base) => {
    await page.goto(`${base}/docs`);
  }},
];

function timestamp(seconds: number): string {
  const date = new Date(seconds * 1000).toISOString();
  return date.slice(11, 23);
}

async function main() {
  const work = path.join(ROOT, '.bench', 'demo');
  rmSync(work, {recursive: true, force: true});
  mkdirSync(work, {recursive: true});
  buildSite(path.join(work, 'site'), {});
  const server = await serveStatic(path.join(work, 'site'));
  const browser = await launchChromium();
  const page = await browser.newPage({viewport: {width: 1280, height: 720}});
  try {
    for (const [index, scene] of scenes.entries()) {
      await scene.show(page, server.url);
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
    '-y', '-loglevel', 'error',
    '-framerate', `1/${SECONDS_PER_SCENE}`, '-i', path.join(work, 'scene%02d.png'),
    '-vf', 'fps=12,format=yuv420p',
    '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '42', '-row-mt', '1',
    path.join(out, 'demo.webm'),
  ]);
  const cues = scenes.map((scene, index) => `${timestamp(index * SECONDS_PER_SCENE)} --> ${timestamp((index + 1) * SECONDS_PER_SCENE)}\n${scene.caption}\n`);
  writeFileSync(path.join(out, 'demo.en.vtt'), `WEBVTT\n\n${cues.join('\n')}`);
  console.log(`Demo video and captions written to static/video/ (${scenes.length} scenes).`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
