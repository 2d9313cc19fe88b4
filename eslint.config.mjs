/**
 * What ESLint checks, and why each exception. `npm run lint` runs it; `test/unit/lint.test.ts`
 * fails `npm test` on any problem it finds.
 */
import js from '@eslint/js';
import docusaurus from '@docusaurus/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import {defineConfig, globalIgnores} from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Made by tools, frozen, or copied from Docusaurus as upstream writes them: as `.prettierignore`.
  globalIgnores([
    'build/',
    '.docusaurus/',
    '.docusaurus-*/',
    '.test-build/',
    '.bench/',
    // Any .wrangler/ (worker/.wrangler/tmp holds wrangler dev's bundle while a local stack runs, as one may beside the lint test).
    '**/.wrangler/',
    'coverage/',
    'worker/worker-configuration.d.ts',
    'versioned_docs/',
    'versioned_sidebars/',
    'src/plugins/reactUtilsWithoutCollator/reactUtils.js',
    'src/plugins/prefetchWhenIdle/docusaurus.js',
    'src/plugins/routeInItsOwnTask/clientEntry.js',
  ]),
  {files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']},
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked against the nearest tsconfig.json: the root one for the site, tests
        // and scripts, worker/tsconfig.json for the worker. The root config files outside both
        // projects get a default one.
        projectService: {allowDefaultProject: ['eslint.config.mjs', 'jest.config.mjs']},
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // React ignores what an event handler returns; the async handlers here catch their own
      // errors, so only promises passed where a caller would drop them are problems.
      '@typescript-eslint/no-misused-promises': ['error', {checksVoidReturn: {attributes: false}}],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_'},
      ],
      '@typescript-eslint/no-unused-expressions': 'error',
      // The tests and scripts write `!` after index reads, as the worker's tsconfig
      // (noUncheckedIndexedAccess) requires; under the root one they are no-ops, not mistakes.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // `async` marks functions that must return a promise (jest hooks, Hono handlers, stand-ins'
      // interfaces) even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests, scripts and Docusaurus plugins read JSON, webpack and Docusaurus objects typed `any`
    // by their sources; the unsafe-* rules would ask for a cast at each read.
    files: ['test/**', 'scripts/**', 'src/plugins/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['test/**', 'scripts/**'],
    rules: {
      // Stand-in servers take async request handlers: a rejection there should end the run
      // loudly, which Node's unhandled rejection does.
      '@typescript-eslint/no-misused-promises': ['error', {checksVoidReturn: {attributes: false, arguments: false}}],
      // Tests and scripts put parsed JSON and form values (`unknown`) into strings on purpose.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Tests take prototype methods aside to wrap them, then call them back with `.call`.
    files: ['test/**'],
    rules: {'@typescript-eslint/unbound-method': 'off'},
  },
  {
    // Plain JavaScript that runs in the browser (the search page and its web worker, the
    // progress bar) or as CommonJS in Node (a webpack loader, jest's stand-ins).
    files: ['src/**/*.{js,jsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        fetch: 'readonly',
        self: 'readonly',
        process: 'readonly',
      },
    },
  },
  {
    files: ['src/plugins/docsVersionSlim/loader.js', 'test/support/*.js'],
    languageOptions: {sourceType: 'commonjs', globals: {module: 'writable', require: 'readonly'}},
    rules: {'@typescript-eslint/no-require-imports': 'off'},
  },
  {
    // The worker's typecheck covers this bench file (it runs in workerd), not the root one.
    files: ['scripts/bench/releaseCpuWorker.ts'],
    languageOptions: {parserOptions: {projectService: false, project: './worker/tsconfig.json'}},
  },
  {
    // Tests' `use…` helpers (useSellerStack, useBrowser) are jest fixtures, not React hooks: the
    // hooks rules cover the code that renders.
    files: ['src/**/*.{ts,tsx,js,jsx}', 'docs/**/_examples/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // The site renders on the server first; what only the browser knows (storage, the signed-in
      // user, the worker's answers) is set in an effect after hydration, which this rule flags.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx,js,jsx}', 'docs/**/_examples/**/*.{ts,tsx}'],
    // The plugin's recommended config is still in the eslintrc shape (plugins as names).
    plugins: {'@docusaurus': docusaurus},
    rules: {
      ...docusaurus.configs.recommended.rules,
      // The site's copy is typed once in src/config and read from there; it is not translated
      // through Docusaurus's i18n, so its text rules would flag every sentence.
      '@docusaurus/string-literal-i18n-messages': 'off',
      '@docusaurus/no-untranslated-text': 'off',
      // Every <a> left is a mailto:, an external URL from data or an in-page #anchor, which Link
      // would only pass through.
      '@docusaurus/no-html-links': 'off',
      // @theme/Heading adds anchor links to docs' headings; the app's screens and landing
      // sections are not anchored sections.
      '@docusaurus/prefer-docusaurus-heading': 'off',
    },
  },
  {
    // A copy of the search plugin's page, kept as upstream writes it (its header names the three
    // changes) so it diffs against the next release: its effects are upstream's.
    files: ['src/plugins/docsSearch/SearchPage.jsx'],
    rules: {'@typescript-eslint/no-floating-promises': 'off', 'react-hooks/exhaustive-deps': 'off'},
  },
  {
    // CommonJS that Node runs as it is (dependency-cruiser's config, jest's summary reporter): plain
    // JavaScript has no types for the type-aware rules to read, so they would see only `any`.
    files: ['**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly'},
    },
    rules: {'@typescript-eslint/no-require-imports': 'off'},
  },
  // Formatting is Prettier's job (.prettierrc.json); this turns off every rule that would argue.
  prettier,
);
