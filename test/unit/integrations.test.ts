/**
 * The hero says the kit "works with" the services of its integrations row (issue 38: it named
 * Tailwind CSS, which the kit never used, and an AI provider no code calls). Each one it names is
 * held here to the code that works with it and, where that code uses the service's package, to
 * package.json.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {landing, type Integration} from '../../src/config';
import packageJson from '../../package.json';

const ROOT = path.join(__dirname, '../..');

/** Where the kit works with each service: a file, what in it shows that, and the package it uses (if any). */
const EVIDENCE: Record<Integration['icon'], {file: string; shows: string; package?: string}> = {
  stripe: {file: 'worker/src/payments/stripeClient.ts', shows: "from 'stripe'", package: 'stripe'},
  cloudflare: {file: 'worker/wrangler.jsonc', shows: '"d1_databases"', package: 'wrangler'},
  firebase: {file: 'src/lib/auth/firebase.ts', shows: "from 'firebase/auth'", package: 'firebase'},
  supabase: {file: 'src/lib/auth/supabase.ts', shows: "from '@supabase/supabase-js'", package: '@supabase/supabase-js'},
  github: {file: 'worker/src/access/github.ts', shows: "from '@octokit/rest'", package: '@octokit/rest'},
  // Both are called over HTTP by the worker, with no SDK: their API's address is the evidence.
  mailgun: {file: 'worker/src/mail.ts', shows: 'https://api.mailgun.net'},
  plausibleanalytics: {file: 'worker/src/settings.ts', shows: 'https://plausible.io'},
};

const declared: Record<string, string> = {...packageJson.dependencies, ...packageJson.devDependencies};

describe("the hero's integrations row", () => {
  it.each(landing.integrations.map((integration) => [integration.name, integration] as const))(
    'names %s, which the kit works with',
    (_name, integration) => {
      const {file, shows, package: name} = EVIDENCE[integration.icon];
      expect(readFileSync(path.join(ROOT, file), 'utf8')).toContain(shows);
      if (name) expect(declared[name]).toBeDefined();
      expect(integration.role.trim()).not.toBe('');
    },
  );

  it('names each service once', () => {
    const names = landing.integrations.map((integration) => integration.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
  });
});
