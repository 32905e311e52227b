/**
 * Starts one in-memory embedded stack (DynamoDB Local + s3rver) for the integration tests and
 * puts its addresses in the environment, which jest's workers inherit. Global setup runs
 * outside jest's module system, so the TypeScript sources are loaded through tsx.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { register } = require('tsx/cjs/api');

module.exports = async function setup() {
  const unregister = register();
  const { startEmbeddedStack } = require('../../local/embedded-stack.ts');
  unregister();
  const stack = await startEmbeddedStack({ s3Directory: mkdtempSync(join(tmpdir(), 'asset-registry-s3-')) });
  Object.assign(process.env, stack.environment);
  globalThis.embeddedStack = stack;
};
