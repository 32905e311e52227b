/**
 * The one way this stack builds a Lambda function: a NodejsFunction bundled by esbuild with the
 * same runtime, size and bundling settings for every operation and for the authorizer, its own
 * log group (with the stack's retention), X-Ray tracing, and a role that starts with nothing
 * but writing to that log group: every data permission is granted by the caller, action by
 * action.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct, IConstruct } from 'constructs';
import { API_TIMEOUT_SECONDS } from '../lambdas/http/api-timeout.js';
import { METRICS_NAMESPACE_ENVIRONMENT, SERVICE_NAME_ENVIRONMENT } from '../lambdas/shared/observability.js';
import { FUNCTION_BUNDLING } from './function-bundling.js';
import { retainedLogGroup } from './log-retention.js';
import { lockFilePath, projectRoot } from './project-paths.js';
import { serviceStackOf } from './service-stack.js';

export interface BundledFunctionProps {
  /** The TypeScript file that exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  /** A fixed function name (only where the name must be known before the function exists). */
  functionName?: string;
  /** Defaults to {@link FUNCTION_TIMEOUT}. */
  timeout?: Duration;
}

/** API Gateway gives up on an integration after 29 s, so a longer Lambda timeout buys nothing. */
const FUNCTION_TIMEOUT = Duration.seconds(API_TIMEOUT_SECONDS);
/** Lambda allots CPU in proportion to memory; 1024 MB keeps cold starts and scrypt short. */
const FUNCTION_MEMORY_MB = 1024;
/**
 * The newest Node.js runtime (cdk-nag AwsSolutions-L1). Node.js 24 refuses callback-style
 * handlers (three parameters); every handler here is async (middy's has two).
 */
export const FUNCTION_RUNTIME = Runtime.NODEJS_24_X;
/** Metric namespace of the Powertools metrics (EMF) the handlers write. */
export const METRICS_NAMESPACE = 'AssetRegistry';

/** The entry file of each function this module built. */
const entries = new WeakMap<NodejsFunction, string>();

/** The TypeScript file a function built by {@link bundledFunction} is bundled from (local mode builds the same). */
export function entryOf(lambdaFunction: NodejsFunction): string {
  const entry = entries.get(lambdaFunction);
  if (!entry) throw new Error(`${lambdaFunction.node.path} was not built by bundledFunction`);
  return entry;
}

/** Every NodejsFunction under a construct (nested stacks included), in the construct tree's order. */
export function nodejsFunctionsUnder(root: IConstruct): NodejsFunction[] {
  return root.node.findAll().filter((construct) => construct instanceof NodejsFunction);
}

/**
 * Creates a NodejsFunction with the project's defaults.
 *
 * @example
 * const fn = bundledFunction(this, 'ListCategoriesFunction', {
 *   entry: handlerEntry('categories/list-categories'),
 *   description: 'List categories',
 *   environment: { TABLE_NAME: table.tableName },
 * });
 */
export function bundledFunction(scope: Construct, id: string, props: BundledFunctionProps): NodejsFunction {
  const logGroup = retainedLogGroup(scope, `${id}LogGroup`);
  // Our own role instead of the default one: the default attaches AWSLambdaBasicExecutionRole,
  // which may create log groups and write to every log group of the account.
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `Role of ${serviceStackOf(scope).stackName} ${id}`.slice(0, 1000),
  });
  logGroup.grantWrite(role);
  // Tracing.ACTIVE adds xray:PutTraceSegments and xray:PutTelemetryRecords on `*`.
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level ' +
      'permissions, so their resource must be "*" (the only statement on "*"; an infra test checks it). ' +
      "A table stream reader's dynamodb:ListStreams (event source mapping) has none either.",
  });

  const lambdaFunction = new NodejsFunction(scope, id, {
    entry: props.entry,
    handler: 'handler',
    description: props.description,
    runtime: FUNCTION_RUNTIME,
    architecture: Architecture.ARM_64,
    memorySize: FUNCTION_MEMORY_MB,
    timeout: props.timeout ?? FUNCTION_TIMEOUT,
    functionName: props.functionName,
    role,
    logGroup,
    tracing: Tracing.ACTIVE,
    projectRoot,
    depsLockFilePath: lockFilePath,
    environment: {
      ...props.environment,
      NODE_OPTIONS: '--enable-source-maps',
      // Powertools: copies deployed under other stack names are told apart in logs and metrics (the
      // root stack's name, also for functions in nested stacks).
      [SERVICE_NAME_ENVIRONMENT]: serviceStackOf(scope).stackName,
      [METRICS_NAMESPACE_ENVIRONMENT]: METRICS_NAMESPACE,
    },
    bundling: {
      ...FUNCTION_BUNDLING,
      // Ship the SDK version we test with instead of the runtime's copy (STYLE: always bundle @aws-sdk/*).
      bundleAwsSDK: true,
    },
  });
  entries.set(lambdaFunction, props.entry);
  return lambdaFunction;
}
