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
  // middy, jose and oauth4webapi ship ES modules only; jest runs CommonJS, so they are transformed too.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|jose|oauth4webapi)/)'],
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

/** Both integration projects share one embedded stack and one run of the stack's functions. */
const integration = {
  ...shared,
  testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/integration-global-setup.js',
  globalTeardown: '<rootDir>/test/support/integration-global-teardown.js',
};

/**
 * The integration files that call handlers from their sources in the test's own process, each
 * because it changes what a function in an environment of its own would not see: a variable of
 * `process.env`, a module mocked or spied on, a table of its own (`isolated-ledger.ts`).
 * Every other file's imports of a handler give the function's bundle (`bundled-function.ts`).
 */
const IN_PROCESS_INTEGRATION = Object.keys({
  'aws-request-failures': 'points S3 at a failing server through process.env',
  exports: 'changes EXPORT_INLINE_MAX_BYTES between tests',
  'exports-as-of': 'a table and signing key of its own; changes EXPORT_INLINE_MAX_BYTES',
  'fuzz-operations': 'sets EXPORT_INLINE_MAX_BYTES to 1 byte',
  'ledger-api': 'a table and signing key of its own',
  'ledger-audit-tools': 'a table and signing key of its own',
  'ledger-bundle': 'a table and signing key of its own, counts tile reads through a spy',
  'ledger-checkpoint-latency': 'a table and signing key of its own',
  'ledger-interop': 'a table and signing key of its own',
  'ledger-sequencer': 'a table and signing key of its own',
  'ledger-sequencer-consistency': 'a table and signing key of its own',
  'ledger-sequencer-kill': 'a table and signing key of its own',
  'ledger-sequencer-trigger': 'a table of its own and a mocked clock',
  'ledger-tamper': 'a table and signing key of its own',
  'ledger-witnessed-clients': 'a table and signing key of its own, read by its CLI children',
  'ledger-witnessed': 'a table and signing key of its own, reads the console output',
  'local-delivery-queue': 'a table of its own, so that no other file’s delivery worker receives its messages',
  'log-state-publication': 'a table of its own',
  'job-cap': 'holds its jobs behind a gate in its own process, changes EXPORT_INLINE_MAX_BYTES',
  'http-local-gateway-policy': 'replaces the authorizer with a mock that allows GET only',
  'subcategories-statistics': 'makes DynamoDB fail through a spy',
  'wallets-login': 'makes DynamoDB fail through a spy',
  'wallets-login-parallel': 'counts password checks through a mock',
  'wallets-secrets': 'reads the console output of the handlers',
  'wallets-sessions': "clears the authorizer's cache",
  'webhooks-delivery': 'points delivery at test receivers through process.env',
  'webhooks-subscriptions': 'turns LOCAL_WEBHOOKS_ALLOW_LOOPBACK off',
  'xray-tracing': 'turns tracing on through process.env',
});
const inProcessPath = (file) => `<rootDir>/test/integration/${file}.test.ts`;

module.exports = {
  testSequencer: '<rootDir>/test/support/heavy-last-sequencer.js',
  // A global option: jest reads no testTimeout from a project (a project's 30 s never applied,
  // and 20 concurrent updates on one object took over 5 s on a loaded CI).
  testTimeout: 30_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...integration,
      displayName: 'integration',
      testPathIgnorePatterns: IN_PROCESS_INTEGRATION.map(inProcessPath),
      // A test's import of a function's source gives that function's bundle, run as deployed.
      moduleNameMapper: {
        '^(?:\\.\\./)+lambdas/((?:handlers|authorizer)/.+?)(?:\\.js)?$':
          '<rootDir>/.cache/function-proxies/$1.js',
        ...shared.moduleNameMapper,
      },
    },
    {
      ...integration,
      displayName: 'integration-in-process',
      testMatch: IN_PROCESS_INTEGRATION.map(inProcessPath),
      // Handlers run in the test's own process, and so do the background jobs they start.
      setupFiles: [...shared.setupFiles, '<rootDir>/test/support/in-process-jobs.js'],
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
