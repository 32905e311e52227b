/**
 * `npm start`: the API on this machine. Starts DynamoDB Local and s3rver with data under
 * `$DATA_DIR` (default `./.data`, kept across restarts) and serves the API on
 * `http://127.0.0.1:$PORT` (default 3000) through the local gateway. Ctrl-C stops everything.
 * `npm start -- -c key=value` synthesizes the stack with that context value, as `cdk deploy` would;
 * `npm start -- --witness` starts a witness beside the log and publishes only what it cosigned.
 * An OpenID Connect provider on loopback signs the demo company's people in to the console
 * (docs/people-sign-in.md#signing-in-locally).
 */
import { join, resolve } from 'node:path';
import { buildConsole } from '../console/build.js';
import { DEFAULT_LOG_ORIGIN } from '../lambdas/domain/ledger/log-signer.js';
import { WITNESS_POLICY_FILE_ENVIRONMENT } from '../lambdas/domain/ledger/witness-config.js';
import { CORS_ALLOWED_ORIGINS_ENVIRONMENT, parseOrigins } from '../lambdas/http/cors.js';
import { CONSOLE_PATH } from './console-files.js';
import { contextFromArguments } from './context-arguments.js';
import { JavaMissingError } from './dynamodb-local.js';
import { type EmbeddedStack, startEmbeddedStack } from './embedded-stack.js';
import { type LocalEventsOut, startLocalEventsOut } from './events-out.js';
import type { LocalFunctions } from './functions/local-functions.js';
import type { StackFunctions } from './functions/stack-functions.js';
import { coverageFileFromEnvironment } from './iam/iam-coverage.js';
import {
  type LocalIdentityProvider,
  startLocalIdentityProvider,
} from './identity-provider/local-identity-provider.js';
import { identityProviderEnvironment } from './identity-provider/provider-environment.js';
import { readDemoRegistration } from './identity-provider/provider-files.js';
import { signInInstructions, signInLines } from './identity-provider/sign-in-instructions.js';
import { type LocalGateway, startLocalGateway } from './local-gateway.js';
import type { LocalSequencer } from './local-sequencer.js';
import { type LocalWitness, startLocalWitness, WITNESS_ARGUMENT } from './local-witness.js';
import { keepDataDirectoryPrivate, PRIVATE_UMASK } from './private-files.js';
import { resumeImportJobs } from './resume-imports.js';
import {
  dataDirectoryFromEnvironment,
  readStackState,
  removeStackState,
  writeStackState,
} from './stack-state.js';

/** The origins of pages this gateway serves (the web console), by either loopback name. */
const localConsoleOrigins = (port: number): string[] => [
  `http://127.0.0.1:${port}`,
  `http://localhost:${port}`,
];

async function main(): Promise<void> {
  // `npm start -- -c key=value`: the stack as `cdk deploy -c key=value` would deploy it.
  const arguments_ = process.argv.slice(2);
  const withWitness = arguments_.includes(WITNESS_ARGUMENT);
  const context = contextFromArguments(arguments_.filter((argument) => argument !== WITNESS_ARGUMENT));
  if (withWitness && process.env[WITNESS_POLICY_FILE_ENVIRONMENT])
    throw new Error(
      `${WITNESS_ARGUMENT} writes its own witness policy: leave ${WITNESS_POLICY_FILE_ENVIRONMENT} out`,
    );
  // The witness policy, as in AWS: its text in the sequencer's environment (docs/ledger.md).
  const witnessPolicyFile = process.env[WITNESS_POLICY_FILE_ENVIRONMENT];
  if (witnessPolicyFile) context.witnessPolicyFile ??= resolve(witnessPolicyFile);
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  const identityProviderSettings = identityProviderEnvironment();
  const dataDirectory = dataDirectoryFromEnvironment();
  // What this process and its children write (keys, state, the database, s3rver's files) is the
  // owner's only; and what an earlier run left wider is tightened (`private-files.ts`).
  process.umask(PRIVATE_UMASK);
  keepDataDirectoryPrivate(dataDirectory);
  const running = readStackState(dataDirectory);
  if (running)
    throw new Error(`Another npm start (pid ${running.pid}) already serves the data folder ${dataDirectory}`);

  let stack: EmbeddedStack | undefined;
  let stackFunctions: StackFunctions | undefined;
  let gateway: LocalGateway | undefined;
  let eventsOut: LocalEventsOut | undefined;
  let sequencer: LocalSequencer | undefined;
  let witness: LocalWitness | undefined;
  let identityProvider: LocalIdentityProvider | undefined;
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    removeStackState(dataDirectory);
    await sequencer?.stop();
    await gateway?.close();
    await eventsOut?.stop();
    await stackFunctions?.stop();
    await stack?.stop();
    await witness?.server.close();
    await identityProvider?.close();
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  buildConsole();
  stack = await startEmbeddedStack({ dataDirectory, s3Directory: join(dataDirectory, 's3') });
  Object.assign(process.env, stack.environment);
  // CORS: the local console's origin (this gateway) unless CORS_ALLOWED_ORIGINS says otherwise.
  process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT] ??= localConsoleOrigins(port).join(',');
  // The log's signing key: made at first start, kept with the data.
  process.env.LEDGER_SIGNING_KEY_FILE ??= join(dataDirectory, 'ledger-signing-key.pem');
  if (withWitness) {
    witness = await startLocalWitness({
      dataDirectory,
      logOrigin: context.ledgerLogOrigin ?? DEFAULT_LOG_ORIGIN,
      // The KMS emulator's key, which the stack's sequencer signs with (stack-functions.ts);
      // LEDGER_SIGNING_KEY_FILE, inherited, may name another.
      signingKeyFile: join(dataDirectory, 'ledger-signing-key.pem'),
    });
    context.witnessPolicyFile = witness.policyFile;
  }
  let functions: LocalFunctions;
  let demoCompanyId: string;
  try {
    const lastIssuer = readDemoRegistration(dataDirectory)?.issuer;
    identityProvider = await startLocalIdentityProvider({
      dataDirectory,
      consoleOrigins: localConsoleOrigins(port),
      consolePath: CONSOLE_PATH,
      port: identityProviderSettings.port,
      preferredPort: lastIssuer ? Number(new URL(lastIssuer).port) : undefined,
      idTokenTtlSeconds: identityProviderSettings.idTokenTtlSeconds,
    });
    // Loaded once the environment names the embedded stack (the domain's clients read it at load).
    const { registerDemoCompany } = await import('./identity-provider/demo-company.js');
    demoCompanyId = await registerDemoCompany(dataDirectory, identityProvider);
    // Loaded once the environment names the embedded stack: the synthesis imports runtime modules
    // whose SDK clients read it when they load.
    const { startStackFunctions } = await import('./functions/stack-functions.js');
    stackFunctions = await startStackFunctions({
      environment: stack.environment,
      dataDirectory,
      context,
      corsAllowedOrigins: parseOrigins(process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT]),
      iamCoverageFile: coverageFileFromEnvironment(),
    });
    functions = stackFunctions.functions;
    const { workers } = stackFunctions.stack;
    // Loaded once the environment names the embedded stack (the table client reads it at load).
    const { startLocalSequencer } = await import('./local-sequencer.js');
    sequencer = await startLocalSequencer({
      handler: (event) => functions.invoke(workers.sequenceLedger, event) as never,
      failureHandling: stackFunctions.streamFailureHandlingOf(workers.sequenceLedger),
    });
    gateway = await startLocalGateway({
      port,
      apiFunctions: stackFunctions.apiFunctions,
      consoleSignIn: { issuer: identityProvider.issuer, clientId: identityProvider.clientId },
    });
    eventsOut = await startLocalEventsOut(stack.environment, {
      publisher: (event) => functions.invoke(workers.publishLedgerEvents, event) as never,
      publisherFailureHandling: stackFunctions.streamFailureHandlingOf(workers.publishLedgerEvents),
      worker: { handler: (event) => functions.invoke(workers.deliverWebhooks, event) as never },
    });
  } catch (error) {
    await gateway?.close();
    await stackFunctions?.stop();
    await stack.stop();
    await witness?.server.close();
    await identityProvider?.close();
    throw error;
  }
  const { importObjects } = stackFunctions.stack.workers;
  const resumedImports = await resumeImportJobs((job) => functions.invokeAsync(importObjects, job));
  if (resumedImports > 0) console.log(`Resumed ${resumedImports} import job(s) left running`);
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const { issuer, clientId, passwordFile } = identityProvider;
  writeStackState(dataDirectory, {
    pid: process.pid,
    gatewayUrl,
    environment: stack.environment,
    identityProvider: { issuer, clientId, companyId: demoCompanyId, passwordFile },
  });
  // One write: whoever waits for the listening line reads the lines after it with it.
  console.log(
    [
      `Asset Registry API listening on ${gatewayUrl} (data in ${dataDirectory})`,
      `Console: ${gatewayUrl}${CONSOLE_PATH}`,
      ...signInLines(issuer, demoCompanyId, signInInstructions(gatewayUrl, passwordFile)),
      ...(witness
        ? [
            `Witness: ${witness.server.url}, cosigner key ${witness.server.verifierKey}`,
            `Witness policy: ${witness.policyFile}`,
          ]
        : []),
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(
    error instanceof JavaMissingError
      ? error.message
      : `npm start failed: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
});
