/**
 * The browser tier runs against one `npm start` (which also builds the console), started here
 * once for every browser test file; its address and data folder go in the environment, which
 * jest's workers inherit. Global setup runs outside jest's module system, hence tsx.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { register } = require('tsx/cjs/api');

module.exports = async function setup() {
  const unregister = register();
  const { startLocalServer } = require('./local-server.ts');
  unregister();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-browser-'));
  const server = await startLocalServer({ dataDirectory });
  process.env.CONSOLE_TEST_PORT = String(server.port);
  process.env.CONSOLE_TEST_DATA_DIR = dataDirectory;
  globalThis.consoleTestServer = server;
};
