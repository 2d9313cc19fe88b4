/**
 * Builds the site for the browser tests and the benchmarks, with the
 * settings baked in as the real `.env` would, and sets up the stock
 * Docusaurus template the benchmarks compare it with.
 */
import {spawnSync} from 'node:child_process';
import {cpSync, mkdirSync, rmSync} from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

const SETTINGS = [
  'WORKER_URL',
  'META_PIXEL_ID',
  'GA_MEASUREMENT_ID',
  'CRISP_WEBSITE_ID',
  'AUTH_PROVIDER',
  'FIREBASE_API_KEY',
  'FIREBASE_AUTH_DOMAIN',
  'FIREBASE_PROJECT_ID',
  'FIREBASE_APP_ID',
  'FIREBASE_AUTH_EMULATOR_HOST',
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'LOCAL_MODE',
] as const;
export type BuildSettings = Partial<Record<(typeof SETTINGS)[number], string>>;

/**
 * The line Docusaurus ends a build with, "Use npm run serve command to test your build locally.":
 * `npm start -- --built` serves the build itself, so it leaves the line out.
 */
export const SERVE_ADVICE = /^\[INFO\] Use .*npm run serve.* command to test your build locally\.$/;

/**
 * `docusaurus build` into outDir; every setting not given is set empty so a developer's .env cannot
 * leak in. Answers what the build printed (stdout, then stderr).
 */
export function buildSite(outDir: string, settings: BuildSettings, siteDir: string = ROOT): string {
  const env: NodeJS.ProcessEnv = {...process.env};
  for (const name of SETTINGS) env[name] = settings[name] ?? '';
  const result = spawnSync(
    process.execPath,
    [require.resolve('@docusaurus/core/bin/docusaurus.mjs'), 'build', '--out-dir', outDir],
    {
      cwd: siteDir,
      env,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    throw new Error(`The site did not build (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return `${result.stdout}\n${result.stderr}`;
}

/** The classic template exactly as `npx create-docusaurus classic` writes it, in `dir` (inside this repo, so it uses our node_modules). */
export function stockTemplate(dir: string): void {
  const templates = path.join(path.dirname(require.resolve('create-docusaurus/package.json')), 'templates');
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  cpSync(path.join(templates, 'shared'), dir, {recursive: true});
  cpSync(path.join(templates, 'classic'), dir, {recursive: true});
}
