/**
 * Local mode's deployed shape: the synthesized stack's functions, each from its bundle in
 * execution environments of its own (`local-functions.ts`), every AWS call they make going to one
 * local endpoint that checks it against the function's role and the resource policies of the
 * templates (`local/iam/`) before DynamoDB Local, s3rver or a local emulator (Lambda, KMS,
 * EventBridge, Secrets Manager; `local/emulators/`) serves it. What has no local emulator yet is reached through a local stand-in, named in
 * {@link LOCAL_STAND_INS}.
 */
import { join } from 'node:path';
import { LOOPBACK_HTTP_ISSUERS_ENVIRONMENT } from '../../lambdas/domain/identity/issuer-urls.js';
import { LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT } from '../../lambdas/domain/webhooks/webhook-address.js';
import { LOCAL_CURSOR_KEY_ENV } from '../../lambdas/shared/cursor-key.js';
import { LOCAL_EVENT_BUS_FILE_ENVIRONMENT } from '../../lambdas/shared/event-bus.js';
import type { StackEnvironment } from '../embedded-stack.js';
import { eventsEmulator } from '../emulators/events-emulator.js';
import { keyArnOfCiphertext, kmsEmulator } from '../emulators/kms-emulator.js';
import { lambdaEmulator } from '../emulators/lambda-emulator.js';
import { secretsManagerEmulator } from '../emulators/secrets-manager-emulator.js';
import { sqsEmulator } from '../emulators/sqs-emulator.js';
import { accessKeyIdOf, credentialEnvironmentOf } from '../iam/function-credentials.js';
import type { FunctionIdentity, PolicyDocument } from '../iam/iam-evaluation.js';
import { type LocalAwsEndpoint, startLocalAwsEndpoint } from '../iam/local-aws-endpoint.js';
import type { ApiFunctions } from '../local-gateway.js';
import { cachedLocalStack } from '../synthesized/cached-local-stack.js';
import type { LocalStack } from '../synthesized/local-stack.js';
import { LOCAL_ACCOUNT_ID } from '../synthesized/template-values.js';
import type { StreamFailureHandling } from '../table-stream.js';
import { bundledApiFunctions } from './api-functions.js';
import { LocalFailureQueues } from './failure-queues.js';
import { functionBundles } from './function-bundles.js';
import { type AsyncInvocationHandling, LocalFunctions } from './local-functions.js';

/**
 * The variables local mode adds to every function's environment besides the endpoint and
 * credentials, each standing in for an AWS service local mode does not emulate yet
 * (docs/local-parity.md, "What still differs from AWS"), with the value it takes from the embedded
 * stack.
 */
const LOCAL_STAND_INS: ReadonlyArray<readonly [name: string, standsInFor: string]> = [
  [LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT, 'a choice, not a service: webhooks to loopback'],
  [LOOPBACK_HTTP_ISSUERS_ENVIRONMENT, 'a choice, not a service: identity providers on loopback over http'],
];

/**
 * The variables that hold an SQS queue URL, pointed at the local endpoint: SQS requests go to
 * their queue URL's host (as the SDK sends them), so a queue's URL is its endpoint.
 */
function queueUrlsOnEndpoint(
  environment: Record<string, string>,
  region: string,
  endpointUrl: string,
): Record<string, string> {
  const awsQueueHost = `https://sqs.${region}.amazonaws.com/`;
  return Object.fromEntries(
    Object.entries(environment)
      .filter(([, value]) => value.startsWith(awsQueueHost))
      .map(([name, value]) => [name, `${endpointUrl}/${value.slice(awsQueueHost.length)}`]),
  );
}

/**
 * What sends a record to the on-failure destination that an event invoke config or an event
 * source mapping names (`DestinationConfig.OnFailure`), if it names one.
 */
function onFailureSender(
  properties: Record<string, unknown>,
  failureQueues: LocalFailureQueues,
): ((record: unknown) => Promise<void>) | undefined {
  const destination = (properties.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)
    ?.OnFailure?.Destination;
  return destination ? (record) => failureQueues.send(destination, record) : undefined;
}

/** A function's asynchronous invocation handling, from its `AWS::Lambda::EventInvokeConfig`. */
export function asyncHandlingOf(
  stack: LocalStack,
  functionName: string,
  failureQueues: LocalFailureQueues,
): AsyncInvocationHandling | undefined {
  const config = stack.eventInvokeConfigs.find((each) => each.FunctionName === functionName);
  if (!config) return undefined;
  return {
    retryAttempts: Number(config.MaximumRetryAttempts ?? 2),
    maxEventAgeSeconds: Number(config.MaximumEventAgeInSeconds ?? 6 * 3600),
    onFailure: onFailureSender(config, failureQueues),
  };
}

/** A stream mapping's failure handling, from its `AWS::Lambda::EventSourceMapping`. */
export function streamFailureHandlingOf(
  stack: LocalStack,
  functionName: string,
  failureQueues: LocalFailureQueues,
): StreamFailureHandling | undefined {
  const mapping = stack.eventSourceMappings.find(
    (each) => each.FunctionName === functionName && String(each.EventSourceArn ?? '').includes(':dynamodb:'),
  );
  if (!mapping) return undefined;
  return {
    retryAttempts: Number(mapping.MaximumRetryAttempts ?? -1),
    maxRecordAgeSeconds: Number(mapping.MaximumRecordAgeInSeconds ?? -1),
    bisectBatchOnError: mapping.BisectBatchOnFunctionError === true,
    onFailure: onFailureSender(mapping, failureQueues),
  };
}

export interface StackFunctions {
  stack: LocalStack;
  functions: LocalFunctions;
  /** How the table stream mapping of this function gives up on a batch, from the template. */
  streamFailureHandlingOf(functionName: string): StreamFailureHandling | undefined;
  apiFunctions: ApiFunctions;
  endpoint: LocalAwsEndpoint;
  stop(): Promise<void>;
}

export interface StackFunctionsOptions {
  /** The embedded stack's environment (DynamoDB Local, s3rver, the stand-ins' files). */
  environment: StackEnvironment;
  dataDirectory: string;
  corsAllowedOrigins: readonly string[];
  /** Where the IAM coverage of allowed calls is appended (JSON Lines), if anywhere. */
  iamCoverageFile?: string;
  /** Context values for the synthesis (`npm start -- -c key=value`), as `cdk` takes them. */
  context?: Record<string, string>;
  /** The stack to run instead of the synthesized one (a test that takes a permission away). */
  stack?: LocalStack;
  /** Where the endpoint writes the calls IAM refused (stderr by default). */
  log?: (line: string) => void;
}

export async function startStackFunctions(options: StackFunctionsOptions): Promise<StackFunctions> {
  const region = options.environment.AWS_REGION;
  const stack =
    options.stack ??
    (await cachedLocalStack({
      region,
      corsAllowedOrigins: options.corsAllowedOrigins,
      context: options.context,
    }));
  const bundles = functionBundles(stack.functions.map((each) => each.entry));
  // A failed build fails every first invocation; it is reported once here too.
  bundles.catch((error: unknown) => console.error(`Building the functions failed: ${String(error)}`));

  const callers = new Map<string, FunctionIdentity>(
    stack.functions.map((each) => [
      accessKeyIdOf(each.name),
      { functionName: each.name, roleArn: each.roleArn, identityPolicies: each.policies },
    ]),
  );
  const resourcePolicies: Record<string, PolicyDocument> = Object.fromEntries(
    stack.resourcePolicies.map(({ resourceArn, policy }) => [resourceArn, policy]),
  );
  let functions: LocalFunctions | undefined;
  const endpoint = await startLocalAwsEndpoint({
    account: { region, accountId: LOCAL_ACCOUNT_ID },
    callers,
    resourcePolicies,
    backends: {
      dynamodb: options.environment.LOCAL_DYNAMODB_ENDPOINT,
      s3: options.environment.AWS_ENDPOINT_URL_S3,
    },
    emulators: {
      lambda: (request) => lambdaEmulator(functions as LocalFunctions)(request),
      kms: kmsEmulator({
        region,
        accountId: LOCAL_ACCOUNT_ID,
        directory: join(options.dataDirectory, 'kms'),
        keyFiles: { [stack.ledgerSigningKeyArn]: join(options.dataDirectory, 'ledger-signing-key.pem') },
      }),
      events: eventsEmulator(options.environment[LOCAL_EVENT_BUS_FILE_ENVIRONMENT] as string),
      secretsmanager: secretsManagerEmulator(() => options.environment[LOCAL_CURSOR_KEY_ENV] as string),
      sqs: sqsEmulator(),
    },
    translation: { kmsKeyArnOfCiphertext: keyArnOfCiphertext },
    // The admin CLI and the main process's own readers (stream, delivery queue) are no function.
    passUnknownCallers: true,
    coverageFile: options.iamCoverageFile,
    log: options.log,
  });
  const standIns = Object.fromEntries(
    LOCAL_STAND_INS.flatMap(([name]) =>
      options.environment[name] === undefined ? [] : [[name, options.environment[name] as string]],
    ),
  );
  const failureQueues = new LocalFailureQueues({
    stack,
    invoke: (functionName, event) => (functions as LocalFunctions).invoke(functionName, event),
    directory: join(options.dataDirectory, 'failed-work'),
  });
  functions = new LocalFunctions({
    functions: stack.functions,
    bundles,
    region,
    logDirectory: join(options.dataDirectory, 'logs'),
    asyncInvocationHandling: (functionName) => asyncHandlingOf(stack, functionName, failureQueues),
    platformEnvironment: (localFunction) => ({
      ...queueUrlsOnEndpoint(localFunction.environment, region, endpoint.url),
      ...credentialEnvironmentOf(localFunction.name),
      AWS_ENDPOINT_URL: endpoint.url,
      ...standIns,
    }),
  });
  const running = functions;
  return {
    stack,
    functions: running,
    apiFunctions: bundledApiFunctions(running, stack.api),
    streamFailureHandlingOf: (functionName) => streamFailureHandlingOf(stack, functionName, failureQueues),
    endpoint,
    async stop() {
      await running.close();
      await endpoint.close();
    },
  };
}
