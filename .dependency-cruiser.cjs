/**
 * The import rules, held by dependency-cruiser (https://github.com/sverweij/dependency-cruiser):
 * `npm run check:imports` prints what breaks them, and `test/unit/importRules.test.ts` runs the same
 * command in `npm test`. The folders and files it reads are that script's arguments (package.json).
 *
 * The worker's layers, from the bottom. A module imports from its own layer and the layers below,
 * never from one above: what is below can then be read, tested and changed without what uses it.
 *
 *   src/config    the product's facts, shared with the site; it imports nothing else
 *   foundation    worker/src/*.ts: settings, errors, log, http, the outbox and its jobs, mail, the
 *                 purchase record, rate limits, Hono's AppEnv (app.ts)…, and three leaves that live
 *                 beside their feature (FOUNDATION_LEAVES)
 *   identity      worker/src/auth/: who is calling (tokens, accounts, the auth middleware)
 *   domains       worker/src/{access,payments,upgrades,releases,team,affiliates}/: what a buyer bought, holds and is
 *                 sent, and who on their team holds it. They use one another both ways (payments grants a seat of access/, access/
 *                 asks payments/ for a purchase's standing), so no order among them: only no circle
 *   surfaces      worker/src/{admin,webhooks}/ and the top-level files that answer a request or a
 *                 cron run themselves (SURFACE_FILES): the seller's console, the services' webhooks,
 *                 leads, analytics
 *   entry         worker/src/index.ts: the Worker's fetch, scheduled and queue handlers, and routes.ts,
 *                 the Hono app that mounts every folder's routes.ts
 *
 * Every module of worker/src is in one of them (LAYERS, below): a new folder joins one there.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Top-level files of worker/src that answer a request or a cron run themselves, for index.ts. */
const SURFACE_FILES = ['analytics', 'leads', 'openApi', 'sameOrigin', 'retention'];

/**
 * Modules in a feature's folder that import nothing of the worker, so the foundation may use them:
 * the signed-in user's type (Hono's context carries it: app.ts), the service account's shape and
 * whether a Stripe key is live (settings.ts checks both at start; `npm run preflight` too).
 * They count as foundation, so the rules hold them there.
 */
const FOUNDATION_LEAVES = ['auth/user', 'auth/serviceAccount', 'payments/stripeClient'];

// One regular expression per folder or file, so that the test can tell each one still names code.
const folders = (...names) => names.map((name) => `^worker/src/${name}/`);
const files = (...names) => names.map((name) => `^worker/src/${name}[.]ts$`);
const ENTRY = files('index', 'routes');
const SURFACES = [...folders('admin', 'webhooks'), ...files(...SURFACE_FILES)];
const LEAVES = files(...FOUNDATION_LEAVES);

/** The layers of the header, bottom first, each with why nothing of it imports from those above. */
const LAYERS = [
  {
    name: 'foundation',
    path: ['^worker/src/[^/]+[.]ts$', ...LEAVES],
    pathNot: [...ENTRY, ...SURFACES],
    why:
      'What every feature builds on imports no feature: else the layers above would be in it, and a change ' +
      'to one feature could break them all.',
  },
  {
    name: 'identity',
    path: folders('auth'),
    why:
      'auth/ says who is calling, and every domain asks it; it knows nothing of what a buyer bought or of ' +
      "the seller's console.",
  },
  {
    name: 'domains',
    path: folders('access', 'payments', 'upgrades', 'releases', 'team', 'affiliates'),
    why:
      'access/, payments/, upgrades/, releases/, team/ and affiliates/ are what the console, the webhooks and the endpoints ' +
      'act on; they never call one of those.',
  },
  {
    name: 'surfaces',
    path: SURFACES,
    why: 'The console, the webhooks and the top-level endpoints are mounted by index.ts; they never import it.',
  },
  {name: 'entry', path: ENTRY},
];

/** A layer's rule: none of its modules imports from a layer above it (a foundation leaf belongs below them all). */
const notUpwards = (layer, index) => ({
  name: `worker-${layer.name}-not-upwards`,
  severity: 'error',
  comment: layer.why,
  from: {path: layer.path, ...(layer.pathNot && {pathNot: layer.pathNot})},
  to: {path: LAYERS.slice(index + 1).flatMap((above) => above.path), pathNot: LEAVES},
});

/**
 * Names that only Docusaurus's bundler resolves, as it builds: the theme's components (`@theme/…`,
 * and `@theme-original/…` in a component that wraps the theme's own), what the build generates
 * (`@generated/…`), and @docusaurus/core's client API, one alias per file of its lib/client/exports
 * (`@docusaurus/Link`, `@docusaurus/router`…). `@site/…` is not among them: tsconfig.json's `paths`
 * resolve it, so what it names is followed like any relative import.
 */
const docusaurusClientApi = fs
  .readdirSync(path.join(__dirname, 'node_modules', '@docusaurus', 'core', 'lib', 'client', 'exports'))
  .filter((file) => file.endsWith('.js'))
  .map((file) => file.slice(0, -'.js'.length));
const DOCUSAURUS_ALIASES = [
  '^@theme/',
  '^@theme-original/',
  '^@generated/',
  `^@docusaurus/(${docusaurusClientApi.join('|')})$`,
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A circle of imports, type-only ones included: none of its modules can be read, tested or moved alone, ' +
        'and at run time one of them meets the others half-initialised. Move what they share into a module ' +
        'of its own, below them.',
      from: {},
      to: {circular: true},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that names no file: whatever lies behind it goes unchecked by every other rule. ' +
        "Docusaurus's own aliases are resolved by its bundler alone (DOCUSAURUS_ALIASES).",
      from: {},
      to: {couldNotResolve: true, pathNot: DOCUSAURUS_ALIASES},
    },
    {
      name: 'product-not-to-test',
      severity: 'error',
      comment:
        'The site, the worker, the scripts (`npm start` among them) and the docs are what a buyer runs and ' +
        'deploys: nothing of theirs may come from test/. Tests import product code, never the other way; ' +
        'what both need lives in the product (scripts/support/, scripts/local/).',
      from: {pathNot: '^test/'},
      to: {path: '^test/'},
    },
    {
      name: 'config-imports-nothing',
      severity: 'error',
      comment:
        'src/config is plain TypeScript (no React, DOM or Node) so that the site, the worker, the scripts ' +
        'and the docs can all read the same facts: it imports only itself, and zod, in which the contract ' +
        "states each endpoint's request and answer (apiSchemas.ts; the site imports only its types).",
      from: {path: '^src/config/'},
      to: {pathNot: ['^src/config/', '(^|/)node_modules/zod/']},
    },
    {
      name: 'site-takes-only-types-of-the-schemas',
      severity: 'error',
      comment:
        "The contract's zod schemas (src/config/apiSchemas.ts, and contract.ts and openApi.ts, built on them) " +
        'are for the worker, the scripts and the tests: the site takes only their types (`import type`), or zod ' +
        "joins every page's bundle (test/browser's page-weight tests).",
      // The docs' examples and pages are bundled with the site too.
      from: {path: '^(src|docs|versioned_docs)/', pathNot: '^src/config/(apiSchemas|contract|openApi)[.]ts$'},
      to: {
        path: ['^src/config/(apiSchemas|contract|openApi)[.]ts$', '(^|/)node_modules/zod/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'worker-not-to-site',
      severity: 'error',
      comment:
        "The worker shares only src/config with the site: the site's components, pages, theme and browser " +
        'libraries (src/lib) need a DOM, and its build-time code needs Node; workerd has neither.',
      from: {path: '^worker/src/'},
      to: {path: '^src/', pathNot: '^src/config/'},
    },
    ...LAYERS.slice(0, -1).map(notUpwards),
    {
      name: 'worker-in-a-layer',
      severity: 'error',
      comment:
        'A module of worker/src in none of the layers could import from any of them, unseen: add its folder ' +
        'or file to a layer in .dependency-cruiser.cjs.',
      from: {path: '^worker/src/', pathNot: LAYERS.flatMap((layer) => layer.path)},
      to: {},
    },
    {
      name: 'worker-routes-only-from-entry',
      severity: 'error',
      comment:
        "A folder's routes.ts is its HTTP surface, mounted by index.ts alone: code that needs what a " +
        'route does calls the module the route calls.',
      from: {path: '^worker/src/', pathNot: ENTRY},
      to: {path: '^worker/src/[^/]+/routes[.]ts$'},
    },
  ],
  options: {
    // Only our own code is followed; a package counts as a dependency, not as code to check.
    doNotFollow: {path: 'node_modules'},
    // Type-only imports count: a circle or an upward import of types is one all the same.
    tsPreCompilationDeps: true,
    // The site's compiler options, and its `paths` (`@site/…`); the worker has no paths of its own.
    tsConfig: {fileName: 'tsconfig.json'},
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
