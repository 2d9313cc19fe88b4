/**
 * One runner for every suite. `unit` renders components in jsdom with
 * Testing Library; `browser` builds the site once and drives the system
 * Chromium against it; `worker` runs the worker bundle in workerd with a
 * local D1 and the Firebase Auth emulator.
 */
import {availableParallelism} from 'node:os';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: {syntax: 'typescript', tsx: true},
      transform: {react: {runtime: 'automatic'}},
      target: 'es2022',
    },
    module: {type: 'commonjs'},
  },
];

/** @type {import('jest').Config} */
export default {
  // jest's own report, then the slowest files and every retry used (test/support/summaryReporter.cjs).
  reporters: ['default', '<rootDir>/test/support/summaryReporter.cjs'],
  // The few longest files first on a fresh clone, where jest has no timings of its own.
  testSequencer: '<rootDir>/test/support/longFilesFirst.cjs',
  // Two files at a time even on two cores (jest's own default there is one): a file that mostly
  // waits on its local stack leaves a core for the next. Measured on a 2-core machine, the whole
  // run went from 2,041 s to 1,847 s. Files side by side share nothing they write: each local stack
  // has its own ports, D1 and generated site folder (scripts/support/localStack.ts).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // Tests marked `concurrent` (the accessibility pages) run this many at a time in their file:
  // enough to keep two cores busy while each waits on its own page.
  maxConcurrency: 3,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: '<rootDir>/test/support/jsdomWithFetch.js',
      testMatch: ['<rootDir>/test/unit/**/*.test.{ts,tsx}'],
      transform: {'^.+\\.(t|j)sx?$': swc},
      // @octokit/rest and what it brings ship ES modules only (preflight asks GitHub with it).
      transformIgnorePatterns: [
        '/node_modules/(?!(@octokit|universal-user-agent|before-after-hook|json-with-bigint)/)',
      ],
      setupFilesAfterEnv: ['<rootDir>/test/support/setupUnit.ts', '<rootDir>/test/support/processorTime.ts'],
      moduleNameMapper: {
        '\\.module\\.css$': '<rootDir>/test/support/cssModule.js',
        '^@docusaurus/Link$': '<rootDir>/test/support/docusaurus/Link.tsx',
        '^@docusaurus/router$': 'react-router-dom',
        '^@docusaurus/useBrokenLinks$': '<rootDir>/test/support/docusaurus/useBrokenLinks.ts',
        '^@docusaurus/ErrorBoundary$': '<rootDir>/test/support/docusaurus/ErrorBoundary.tsx',
        '^@docusaurus/useIsBrowser$': '<rootDir>/test/support/docusaurus/useIsBrowser.ts',
        '^@docusaurus/theme-common$': '<rootDir>/test/support/docusaurus/themeCommon.ts',
        '^@theme/ErrorPageContent$': '<rootDir>/src/theme/ErrorPageContent.tsx',
      },
    },
    {
      displayName: 'browser',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      transform: {'^.+\\.(t|j)sx?$': swc},
      globalSetup: '<rootDir>/test/browser/globalSetup.ts',
      globalTeardown: '<rootDir>/test/browser/globalTeardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/browser/setup.ts', '<rootDir>/test/support/processorTime.ts'],
    },
    {
      displayName: 'worker',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/worker/**/*.test.ts'],
      transform: {'^.+\\.(t|j)sx?$': swc},
      // jose ships ES modules only; compile it like our own code.
      transformIgnorePatterns: ['/node_modules/(?!jose/)'],
      globalSetup: '<rootDir>/test/worker/globalSetup.ts',
      globalTeardown: '<rootDir>/test/worker/globalTeardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/worker/setup.ts', '<rootDir>/test/support/processorTime.ts'],
    },
  ],
};
