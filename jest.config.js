/**
 * Four test tiers, told apart by folder:
 * - unit: no network, no processes;
 * - integration: handlers and repositories against DynamoDB Local and s3rver (started once);
 * - infra: CDK Template assertions on the synthesized stack;
 * - e2e: `npm start` in a child process, the admin CLI, and HTTP calls;
 * - browser: the web console in headless Chromium against one `npm start` for the tier.
 */
const swcTransform = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  },
];

const shared = {
  transform: { '^.+\\.(t|j|mj)s$': swcTransform },
  // middy ships ES modules only; jest runs CommonJS, so it is transformed too.
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  moduleNameMapper: {
    '^#shared/(.*)\\.js$': '<rootDir>/lambdas/shared/$1',
    '^#http/(.*)\\.js$': '<rootDir>/lambdas/http/$1',
    '^#domain/(.*)\\.js$': '<rootDir>/lambdas/domain/$1',
    '^#repositories/(.*)\\.js$': '<rootDir>/lambdas/repositories/$1',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/quiet-powertools.js'],
};

module.exports = {
  testSequencer: '<rootDir>/test/support/heavy-last-sequencer.js',
  // A global option: jest reads no testTimeout from a project (the integration project's 30 s
  // below never applied, and 20 concurrent updates on one object took over 5 s on a loaded CI).
  testTimeout: 30_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Handlers run in the test's own process, and so do the background jobs they start.
      setupFiles: [...shared.setupFiles, '<rootDir>/test/support/in-process-jobs.js'],
      globalSetup: '<rootDir>/test/support/integration-global-setup.js',
      // Jest's 5 s default is a guard against hangs, not a budget: a slow or loaded CI machine
      // took over 5 s for 20 concurrent updates that retry on one object.
      testTimeout: 30_000,
      globalTeardown: '<rootDir>/test/support/integration-global-teardown.js',
    },
    { ...shared, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/browser-global-setup.js',
      globalTeardown: '<rootDir>/test/support/browser-global-teardown.js',
    },
  ],
};
