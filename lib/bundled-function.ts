/**
 * The one way this stack builds a Lambda function: a NodejsFunction bundled by esbuild with the
 * same runtime, size and bundling settings for every operation and for the authorizer.
 */
import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { lockFilePath, projectRoot } from './project-paths.js';

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
export const FUNCTION_TIMEOUT = Duration.seconds(29);
/** Lambda allots CPU in proportion to memory; 1024 MB keeps cold starts and scrypt short. */
export const FUNCTION_MEMORY_MB = 1024;

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
  return new NodejsFunction(scope, id, {
    entry: props.entry,
    handler: 'handler',
    description: props.description,
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: FUNCTION_MEMORY_MB,
    timeout: props.timeout ?? FUNCTION_TIMEOUT,
    functionName: props.functionName,
    projectRoot,
    depsLockFilePath: lockFilePath,
    environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    bundling: {
      minify: true,
      sourceMap: true,
      // Stack traces need only the mappings; embedding every bundled source would triple the zip.
      sourcesContent: false,
      target: 'node22',
      // Ship the SDK version we test with instead of the runtime's copy (STYLE: always bundle @aws-sdk/*).
      bundleAwsSDK: true,
    },
  });
}
