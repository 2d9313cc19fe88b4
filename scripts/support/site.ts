/**
 * Builds the site for the browser tests and the benchmarks, with the
 * settings baked in as the real `.env` would, and sets up the stock
 * Docusaurus template the benchmarks compare it with.
 */
import {spawn} from 'node:child_process';
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
 * leak in. Answers what the build printed (stdout, then stderr). A child process the caller may
 * await beside other work (the browser suite starts the Auth emulator while the site builds).
 */
export function buildSite(outDir: string, settings: BuildSettings, siteDir: string = ROOT): Promise<string> {
  const env: NodeJS.ProcessEnv = {...process.env};
  for (const name of SETTINGS) env[name] = settings[name] ?? '';
  const child = spawn(
    process.execPath,
    [require.resolve('@docusaurus/core/bin/docusaurus.mjs'), 'build', '--out-dir', outDir],
    {cwd: siteDir, env, stdio: ['ignore', 'pipe', 'pipe']},
  );
  let [stdout, stderr] = ['', ''];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      if (status === 0) resolve(`${stdout}\n${stderr}`);
      else reject(new Error(`The site did not build (exit ${status}):\n${stdout}\n${stderr}`));
    });
  });
}

/** The classic template exactly as `npx create-docusaurus classic` writes it, in `dir` (inside this repo, so it uses our node_modules). */
export function stockTemplate(dir: string): void {
  const templates = path.join(path.dirname(require.resolve('create-docusaurus/package.json')), 'templates');
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  cpSync(path.join(templates, 'shared'), dir, {recursive: true});
  cpSync(path.join(templates, 'classic'), dir, {recursive: true});
}
