import type {AuthProviderName} from '../lib/auth/types';
import {SAME_ORIGIN_PREFIX} from '../config/api';
import {emulatorProject} from '../config/serviceName';

/** The services `npm start` can stand in for on this machine when their keys are absent. */
export const LOCAL_SERVICES = ['sign-in', 'payments', 'github', 'email'] as const;
export type LocalService = (typeof LOCAL_SERVICES)[number];

export interface AuthSettings {
  provider: AuthProviderName;
  /** The Firebase web app's public config; the emulator's demo project when no key is set. */
  firebase: {apiKey: string; authDomain: string; projectId: string; appId: string};
  /** host:port of the Firebase Auth emulator, or empty for the real Firebase. */
  firebaseEmulatorHost: string;
  supabase: {url: string; anonKey: string};
}

/**
 * The site's public settings, read from the root `.env` at build time.
 * Every one is optional: without them the site builds, runs and makes no
 * third-party request.
 */
export interface SiteSettings {
  /** Base URL of the Cloudflare Worker that takes payments and grants access. */
  workerUrl: string;
  /** Meta (Facebook) pixel id; empty turns the pixel off. */
  metaPixelId: string;
  /** Google Analytics measurement id (G-…); empty turns web-vitals reporting off. */
  gaMeasurementId: string;
  /** Crisp website id; empty turns the chat widget off. */
  crispWebsiteId: string;
  auth: AuthSettings;
  /** Services running as local stand-ins (set by `npm start`); the site says so in a banner. */
  localMode: LocalService[];
}

export const DEFAULT_EMULATOR_HOST = '127.0.0.1:9099';
export const DEFAULT_FIREBASE_PROJECT = emulatorProject;

export const DEFAULT_WORKER_URL = 'http://127.0.0.1:8787';

export type Env = Record<string, string | undefined>;

function optional(env: Env, name: string, pattern: RegExp, example: string): string {
  const value = (env[name] ?? '').trim();
  if (value && !pattern.test(value)) {
    throw new Error(`${name}="${value}" is not valid: expected something like ${example}. Fix it in .env.`);
  }
  return value;
}

function workerUrl(env: Env): string {
  const value = (env.WORKER_URL ?? '').trim();
  if (!value) return DEFAULT_WORKER_URL;
  // The worker on the site's own origin (one Worker serving both, a rewrite, or the dev proxy).
  if (value.replace(/\/+$/, '') === SAME_ORIGIN_PREFIX) return SAME_ORIGIN_PREFIX;
  if (value.startsWith('/')) {
    throw new Error(
      `WORKER_URL="${value}": on the site's own origin the worker answers under ${SAME_ORIGIN_PREFIX} only. Fix it in .env.`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `WORKER_URL="${value}" is not a URL: expected something like https://api.example.com, or ${SAME_ORIGIN_PREFIX} on the site's own origin. Fix it in .env.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`WORKER_URL="${value}" must start with http:// or https://. Fix it in .env.`);
  }
  // The client joins paths onto it, so one form only: no trailing slash.
  return url.href.replace(/\/+$/, '');
}

function authSettings(env: Env): AuthSettings {
  const provider = (env.AUTH_PROVIDER ?? '').trim() || 'firebase';
  if (provider !== 'firebase' && provider !== 'supabase') {
    throw new Error(`AUTH_PROVIDER="${provider}" must be "firebase" or "supabase". Fix it in .env.`);
  }
  const value = (name: string) => (env[name] ?? '').trim();
  const apiKey = value('FIREBASE_API_KEY');
  const projectId = value('FIREBASE_PROJECT_ID') || DEFAULT_FIREBASE_PROJECT;
  const emulatorHost = optional(env, 'FIREBASE_AUTH_EMULATOR_HOST', /^[\w.-]+:\d{1,5}$/, DEFAULT_EMULATOR_HOST);
  const supabase = {
    url: optional(env, 'SUPABASE_URL', /^https?:\/\/\S+$/, 'https://abcdefgh.supabase.co').replace(/\/+$/, ''),
    anonKey: value('SUPABASE_ANON_KEY'),
  };
  if (provider === 'supabase' && (!supabase.url || !supabase.anonKey)) {
    throw new Error('AUTH_PROVIDER="supabase" needs SUPABASE_URL and SUPABASE_ANON_KEY. Set them in .env.');
  }
  return {
    provider,
    firebase: {
      // The emulator accepts any key; a real project needs its own.
      apiKey: apiKey || 'local-emulator-key',
      authDomain: value('FIREBASE_AUTH_DOMAIN') || `${projectId}.firebaseapp.com`,
      projectId,
      appId: value('FIREBASE_APP_ID'),
    },
    // Without a real project's key, sign-in runs against the local emulator.
    firebaseEmulatorHost: emulatorHost || (apiKey ? '' : DEFAULT_EMULATOR_HOST),
    supabase,
  };
}

function localMode(env: Env, auth: AuthSettings): LocalService[] {
  const named = (env.LOCAL_MODE ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of named) {
    if (!(LOCAL_SERVICES as readonly string[]).includes(name)) {
      throw new Error(`LOCAL_MODE names "${name}": expected some of ${LOCAL_SERVICES.join(', ')}.`);
    }
  }
  const emulated = auth.provider === 'firebase' && auth.firebaseEmulatorHost !== '';
  return LOCAL_SERVICES.filter((name) => named.includes(name) || (name === 'sign-in' && emulated));
}

/** Reads and checks the settings; a malformed value stops the build with a message naming it. */
export function parseSiteSettings(env: Env): SiteSettings {
  const auth = authSettings(env);
  return {
    workerUrl: workerUrl(env),
    metaPixelId: optional(env, 'META_PIXEL_ID', /^\d{5,20}$/, '1234567890123456'),
    gaMeasurementId: optional(env, 'GA_MEASUREMENT_ID', /^G-[A-Z0-9]{4,16}$/, 'G-ABC123XYZ9'),
    crispWebsiteId: optional(
      env,
      'CRISP_WEBSITE_ID',
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
    ),
    auth,
    localMode: localMode(env, auth),
  };
}
