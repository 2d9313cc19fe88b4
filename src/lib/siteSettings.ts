import type {StripeMode} from '../config';

/**
 * The site's public settings, read from the root `.env` at build time.
 * Every one is optional: without them the site builds, runs and makes no
 * third-party request.
 */
export interface SiteSettings {
  /** Base URL of the Cloudflare Worker that takes payments and grants access. */
  workerUrl: string;
  /** Which of each plan's price ids the checkout sends. */
  stripeMode: StripeMode;
  /** Meta (Facebook) pixel id; empty turns the pixel off. */
  metaPixelId: string;
  /** Google Analytics measurement id (G-…); empty turns web-vitals reporting off. */
  gaMeasurementId: string;
  /** Crisp website id; empty turns the chat widget off. */
  crispWebsiteId: string;
}

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
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`WORKER_URL="${value}" is not a URL: expected something like https://api.example.com. Fix it in .env.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`WORKER_URL="${value}" must start with http:// or https://. Fix it in .env.`);
  }
  // The client joins paths onto it, so one form only: no trailing slash.
  return url.href.replace(/\/+$/, '');
}

function stripeMode(env: Env): StripeMode {
  const value = (env.STRIPE_MODE ?? '').trim() || 'test';
  if (value !== 'test' && value !== 'production') {
    throw new Error(`STRIPE_MODE="${value}" must be "test" or "production". Fix it in .env.`);
  }
  return value;
}

/** Reads and checks the settings; a malformed value stops the build with a message naming it. */
export function parseSiteSettings(env: Env): SiteSettings {
  return {
    workerUrl: workerUrl(env),
    stripeMode: stripeMode(env),
    metaPixelId: optional(env, 'META_PIXEL_ID', /^\d{5,20}$/, '1234567890123456'),
    gaMeasurementId: optional(env, 'GA_MEASUREMENT_ID', /^G-[A-Z0-9]{4,16}$/, 'G-ABC123XYZ9'),
    crispWebsiteId: optional(
      env,
      'CRISP_WEBSITE_ID',
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e',
    ),
  };
}
