import {readdir, readFile, rename, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/**
 * The built pages paint before the site's bundles run.
 *
 * Docusaurus loads its bundles (`runtime~main` and `main`) with `<script defer>`. A deferred script
 * runs as soon as the stylesheet is in, before the browser paints: on a phone, `main.js` (about
 * 110 KB gzipped) is parsed and run, and the route's chunks are asked for, before the reader sees
 * text that was in the HTML all along. After the build, this turns those tags into preloads at low
 * priority, so the bundles download as early as before, and adds a script at the end of the body
 * that runs them once the first contentful paint is reported. Hydration starts a frame later; the
 * text shows sooner. The script finds the bundles by their preloads (`data-paint-first`) rather
 * than naming them, so its text, and the hash the Content-Security-Policy allows it by, stays the
 * same from build to build.
 *
 * Done on the built HTML, not with Docusaurus's `ssrTemplate`: Docusaurus ships the whole site
 * config, a template included, to every browser inside `main.js`.
 */
export default function paintFirst(): Plugin {
  return {
    name: 'paint-first',
    async postBuild({outDir}) {
      const files = await htmlFiles(outDir);
      await Promise.all(
        files.map(async (file) => {
          const html = await readFile(file, 'utf8');
          const painted = runBundlesAfterPaint(html, path.relative(outDir, file));
          if (painted === html) return;
          // Other plugins read the pages in their own postBuild meanwhile (the search index): never half a file.
          await writeFile(`${file}.paint-first`, painted);
          await rename(`${file}.paint-first`, file);
        }),
      );
    },
  };
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true});
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Docusaurus's bundle tags as its HTML minifier writes them, quoted or not. */
const BUNDLE_TAG = /<script src="?([^"\s>]*\/assets\/js\/(?:runtime~main|main)\.\w+\.js)"? defer><\/script>/g;
/** The attribute that marks the bundles' preloads, in their order, for the runner. */
const BUNDLE_PRELOAD = 'data-paint-first';
/** Any script tag that loads a bundle, whatever its form. */
const ANY_BUNDLE_SCRIPT = /<script[^>]*\/assets\/js\/(?:runtime~main|main)\.\w+\.js/;

/**
 * The page with its bundles preloaded and run after the first paint. A file without them (a
 * static HTML page of the seller's) is returned as it is; one that loads a bundle in a tag this
 * does not know stops the build, so a change in Docusaurus cannot silently undo this.
 */
export function runBundlesAfterPaint(html: string, file: string): string {
  const scripts = [...html.matchAll(BUNDLE_TAG)].map((match) => match[1]!);
  const preloaded = html.replace(
    BUNDLE_TAG,
    (_tag, src: string) => `<link rel="preload" as="script" fetchpriority="low" href="${src}" ${BUNDLE_PRELOAD}>`,
  );
  if (ANY_BUNDLE_SCRIPT.test(preloaded)) {
    throw new Error(`src/plugins/paintFirst.ts: ${file} loads a bundle in a tag it does not know; update BUNDLE_TAG.`);
  }
  if (scripts.length === 0) return html;
  const bodyEnd = preloaded.lastIndexOf('</body>');
  if (bodyEnd === -1) throw new Error(`src/plugins/paintFirst.ts: ${file} has no </body>.`);
  const runner = `<script>(${inPage})()</script>`;
  return preloaded.slice(0, bodyEnd) + runner + preloaded.slice(bodyEnd);
}

/**
 * Runs in the page, at the end of <body>: adds the bundles (their preloads' addresses, in order)
 * after the first contentful paint. Dynamic scripts with `async = false` run in the order they were added, as deferred ones do.
 * - A tab opened in the background paints nothing until it is shown, so it adds them at once.
 * - A browser without paint timing (PerformanceObserver or its 'paint' type) adds them at once too.
 * - A page that paints no text or image adds them after a second.
 * Keep comments out of its body: its source goes into every page with the whitespace squeezed out.
 */
function runAfterFirstPaint(): void {
  const scripts = [...document.querySelectorAll<HTMLLinkElement>('link[data-paint-first]')].map((link) => link.href);
  const add = () => {
    for (const src of scripts.splice(0)) {
      const script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.head.appendChild(script);
    }
  };
  if (document.visibilityState === 'hidden' || !window.PerformanceObserver?.supportedEntryTypes?.includes('paint'))
    return add();
  new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length) setTimeout(add);
  }).observe({type: 'paint', buffered: true});
  setTimeout(add, 1000);
}

/** The function's source on one line: its statements end in semicolons or braces, and it holds no comment. */
const inPage = runAfterFirstPaint.toString().replace(/\s+/g, ' ');
