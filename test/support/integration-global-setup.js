/**
 * Starts one in-memory embedded stack (DynamoDB Local + s3rver) for the integration tests and
 * puts its addresses in the environment, which jest's workers inherit. Then runs the synthesized
 * stack's functions on it as `npm start` does (each from its bundle, in environments of its own,
 * IAM checked; `local/functions/stack-functions.ts`) and writes, for each function's source, the
 * module that a test's import of that source is mapped to (`bundled-function.ts`), and serves
 * their invocations to jest's workers (`function-invocation-server.ts`). Global setup
 * runs outside jest's module system, so the TypeScript sources are loaded through tsx.
 */
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, relative } = require('node:path');
const { register } = require('tsx/cjs/api');
const { register: registerEsm } = require('tsx/esm/api');

const projectRoot = join(__dirname, '..', '..');
/** Where the proxies are written: `<dir>/handlers/objects/get-object.js` and so on. */
const PROXY_DIRECTORY = join(projectRoot, '.cache', 'function-proxies');

function writeFunctionProxies(functions) {
  rmSync(PROXY_DIRECTORY, { recursive: true, force: true });
  const proxyModule = join(projectRoot, 'test', 'support', 'bundled-function.ts');
  for (const each of functions) {
    const source = relative(join(projectRoot, 'lambdas'), each.entry).replace(/\.ts$/, '.js');
    const file = join(PROXY_DIRECTORY, source);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `// Written by test/support/integration-global-setup.js: ${each.logicalId}, bundled.\n` +
        `module.exports = require(${JSON.stringify(proxyModule)}).bundledFunctionModule(${JSON.stringify(each.name)});\n`,
    );
  }
}

module.exports = async function setup() {
  const unregister = register();
  // The synthesis is imported dynamically (`cached-local-stack.ts`), through the ESM loader.
  const unregisterEsm = registerEsm();
  const { startEmbeddedStack } = require('../../local/embedded-stack.ts');
  const stack = await startEmbeddedStack({ s3Directory: mkdtempSync(join(tmpdir(), 'asset-registry-s3-')) });
  Object.assign(process.env, stack.environment);
  globalThis.embeddedStack = stack;
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-functions-'));
  // The log's signing key, one file for the KMS emulator and for in-process signers.
  process.env.LEDGER_SIGNING_KEY_FILE ??= join(dataDirectory, 'ledger-signing-key.pem');
  // Loaded once the environment names the embedded stack (runtime modules read it at load).
  const { startStackFunctions } = require('../../local/functions/stack-functions.ts');
  const { coverageFileFromEnvironment } = require('../../local/iam/iam-coverage.ts');
  const {
    FUNCTION_INVOCATIONS_ENVIRONMENT,
    FUNCTIONS_AWS_ENDPOINT_ENVIRONMENT,
  } = require('./bundled-function.ts');
  const { startFunctionInvocationServer } = require('./function-invocation-server.ts');
  const { CORS_ALLOWED_ORIGINS_ENVIRONMENT, parseOrigins } = require('../../lambdas/http/cors.ts');
  const stackFunctions = await startStackFunctions({
    environment: stack.environment,
    dataDirectory,
    corsAllowedOrigins: parseOrigins(process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT]),
    iamCoverageFile: coverageFileFromEnvironment(),
  }).finally(async () => {
    unregister();
    await unregisterEsm();
  });
  globalThis.stackFunctions = stackFunctions;
  writeFunctionProxies(stackFunctions.stack.functions);
  const invocations = await startFunctionInvocationServer(stackFunctions.functions);
  globalThis.functionInvocationServer = invocations.server;
  process.env[FUNCTION_INVOCATIONS_ENVIRONMENT] = invocations.url;
  process.env[FUNCTIONS_AWS_ENDPOINT_ENVIRONMENT] = stackFunctions.endpoint.url;
};
