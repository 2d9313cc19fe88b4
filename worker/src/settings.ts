import {z} from 'zod';
import type {StripeMode} from '../../src/config';

/**
 * The worker's variables, checked once per isolate. Missing optional services stay `undefined`
 * so each module can say plainly what is not configured instead of failing half-way.
 */
const optional = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const settingsSchema = z.object({
  SITE_URL: z.url({message: 'SITE_URL must be an absolute URL'}),
  AUTH_PROVIDER: optional.pipe(z.enum(['firebase', 'supabase']).default('firebase')),
  FIREBASE_PROJECT_ID: optional,
  FIREBASE_AUTH_EMULATOR_HOST: optional,
  FIREBASE_SERVICE_ACCOUNT: optional,
  FIREBASE_JWKS_URL: optional,
  SUPABASE_URL: optional,
  SUPABASE_SERVICE_ROLE_KEY: optional,
  SUPABASE_JWT_SECRET: optional,
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: optional,
  GITHUB_TOKEN: optional,
  GITHUB_REPO: optional.pipe(
    z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'GITHUB_REPO must be owner/name').optional(),
  ),
  GITHUB_PERMISSION: optional.pipe(
    z.enum(['pull', 'triage', 'push', 'maintain', 'admin']).default('pull'),
  ),
  GITHUB_API_URL: optional,
  MAILGUN_API_KEY: optional,
  MAILGUN_DOMAIN: optional,
  MAILGUN_WEBHOOK_SIGNING_KEY: optional,
  MAILGUN_API_URL: optional,
  PLAUSIBLE_HOST: optional.pipe(z.string().default('https://plausible.io')),
});

type Parsed = z.output<typeof settingsSchema>;

export interface Settings extends Parsed {
  /** The site's origin, e.g. `https://slipway.dev`. */
  siteOrigin: string;
  /** Which price ids the plans use: production for live keys, test otherwise. */
  stripeMode: StripeMode;
}

const cache = new WeakMap<object, Settings>();

export function settingsOf(env: Env): Settings {
  let settings = cache.get(env);
  if (!settings) {
    const parsed = settingsSchema.safeParse(env);
    if (!parsed.success) {
      throw new Error(`Worker variables are invalid: ${z.prettifyError(parsed.error)}`);
    }
    settings = {
      ...parsed.data,
      siteOrigin: new URL(parsed.data.SITE_URL).origin,
      stripeMode: parsed.data.STRIPE_SECRET_KEY?.startsWith('sk_live_') ? 'production' : 'test',
    };
    cache.set(env, settings);
  }
  return settings;
}
