/**
 * A deploy set up correctly, against local mode's stand-ins for Stripe, GitHub and Mailgun: each
 * test breaks one thing of it. Every product fact comes from src/config.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import Stripe from 'stripe';
import {appConfig} from '../../../src/config';
import {
  EXTRA_FIXTURE_REPO,
  FIXTURE_REPO,
  type GitHubStandIn,
  newRepositoryHook,
  startGitHubStandIn,
} from '../../../scripts/local/githubApi';
import {type MailgunStandIn, startMailgunStandIn} from '../../../scripts/local/mailgunApi';
import {newWebhookEndpoint, startStripeStandIn, type StripeStandIn} from '../../../scripts/local/stripeApi';
import {mailgunWebhookUrl, SENDING_DOMAIN} from '../../../scripts/preflight/mail';
import type {PreflightSettings} from '../../../scripts/preflight/settings';
import {readWorkerConfig} from '../../../scripts/preflight/settings';
import {githubWebhookUrl} from '../../../scripts/preflight/releaseWebhook';
import {stripeWebhookUrl} from '../../../scripts/preflight/stripe';
import {offlineServiceAccount} from '../../../scripts/support/offlineServiceAccount';
import type {CheckLine} from '../../../scripts/preflight/lines';
import type {WorkerConfig} from '../../../scripts/preflight/cloudflare';

// Loading wrangler's config reader, Octokit and making an RSA key take seconds on a busy machine.
jest.setTimeout(30_000);

export const SITE_URL = `https://${appConfig.domainName}`;
export const PROJECT = 'preflight-project';
export const LIVE_KEY = 'sk_live_preflight';
export const TEST_KEY = 'sk_test_preflight';

/** The secrets a ready deploy has set on Cloudflare. */
export const SECRET_NAMES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'GITHUB_TOKEN',
  'GITHUB_REPO',
  'GITHUB_EXTRA_REPOS',
  'MAILGUN_API_KEY',
  'MAILGUN_DOMAIN',
  'MAILGUN_WEBHOOK_SIGNING_KEY',
  'FIREBASE_SERVICE_ACCOUNT',
  'ADMIN_EMAILS',
  'GITHUB_WEBHOOK_SECRET',
  'UNSUBSCRIBE_SECRET',
];

export interface Services {
  stripe: StripeStandIn;
  github: GitHubStandIn;
  mailgun: MailgunStandIn;
  close(): Promise<void>;
}

/**
 * The stand-ins, as a ready seller's accounts are: the plans' prices (the stand-in's own), a
 * webhook endpoint at the site in both modes, GitHub's release webhook to the worker, a verified
 * sending domain and its inbound route.
 */
export async function startServices(): Promise<Services> {
  const [stripe, github, mailgun] = await Promise.all([
    startStripeStandIn(),
    startGitHubStandIn({extraRepositories: [EXTRA_FIXTURE_REPO]}),
    startMailgunStandIn(),
  ]);
  const url = stripeWebhookUrl(SITE_URL);
  // Made with the API version the worker's Stripe library reads, as Stripe's go-live checklist says.
  const api_version = Stripe.API_VERSION;
  stripe.webhookEndpoints.push(
    newWebhookEndpoint({url, livemode: false, api_version}),
    newWebhookEndpoint({url, livemode: true, api_version}),
  );
  // GitHub's release webhook, set up as "Ship an update" says.
  github.hooks.push(newRepositoryHook({url: githubWebhookUrl(SITE_URL)}));
  mailgun.domains.set(SENDING_DOMAIN, {
    name: SENDING_DOMAIN,
    state: 'active',
    created_at: new Date().toUTCString(),
    type: 'custom',
  });
  mailgun.routes.push({
    id: 'route-1',
    priority: 0,
    description: 'Replies to the worker',
    expression: `match_recipient(".*@${SENDING_DOMAIN}")`,
    actions: [`forward("${mailgunWebhookUrl(SITE_URL)}")`, 'stop()'],
    created_at: new Date().toUTCString(),
  });
  return {
    stripe,
    github,
    mailgun,
    close: async () => void (await Promise.all([stripe.close(), github.close(), mailgun.close()])),
  };
}

/** The committed `site` environment of worker/wrangler.jsonc, filled in as the deployment docs say. */
export function readyWorkerConfig(): WorkerConfig {
  const config = readWorkerConfig(path.join(__dirname, '..', '..', '..', 'worker', 'wrangler.jsonc'), 'site');
  return {
    d1_databases: config.d1_databases.map((database) => ({...database, database_id: crypto.randomUUID()})),
    vars: {...config.vars, SITE_URL, FIREBASE_PROJECT_ID: PROJECT},
  };
}

export async function readySettings(services: Services, key = LIVE_KEY): Promise<PreflightSettings> {
  const config = readyWorkerConfig();
  return {
    env: 'site',
    config,
    site: {
      AUTH_PROVIDER: 'firebase',
      FIREBASE_API_KEY: 'AIza-preflight',
      FIREBASE_AUTH_DOMAIN: `${PROJECT}.firebaseapp.com`,
      FIREBASE_PROJECT_ID: PROJECT,
      FIREBASE_APP_ID: '1:2:web:3',
    },
    worker: {
      ...(config.vars as Record<string, string>),
      STRIPE_SECRET_KEY: key,
      STRIPE_WEBHOOK_SECRET: 'whsec_preflight',
      STRIPE_API_URL: services.stripe.url,
      GITHUB_TOKEN: 'github_pat_preflight',
      GITHUB_REPO: FIXTURE_REPO,
      GITHUB_EXTRA_REPOS: `prompts=${EXTRA_FIXTURE_REPO}`,
      GITHUB_API_URL: services.github.url,
      GITHUB_WEBHOOK_SECRET: 'github-webhook-secret',
      UNSUBSCRIBE_SECRET: 'unsubscribe-secret',
      MAILGUN_API_KEY: 'mailgun-key',
      MAILGUN_DOMAIN: SENDING_DOMAIN,
      MAILGUN_WEBHOOK_SIGNING_KEY: 'mailgun-signing-key',
      MAILGUN_API_URL: services.mailgun.url,
      FIREBASE_SERVICE_ACCOUNT: await offlineServiceAccount(PROJECT),
      ADMIN_EMAILS: appConfig.mail.forwardRepliesTo,
    },
  };
}

/** The lines of one status, as `status: label` for readable failures. */
export const linesOf = (lines: CheckLine[], status: CheckLine['status']) =>
  lines.filter((line) => line.status === status);
