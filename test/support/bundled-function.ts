/**
 * A handler module of the integration tier as the deployed stack runs it: importing
 * `lambdas/handlers/<group>/<name>` or `lambdas/authorizer/<name>` from a test gives this proxy
 * (jest's `moduleNameMapper`, files written by `integration-global-setup.js`), whose `handler`
 * invokes that function's bundle in local mode's Lambda service (`function-invocation-server.ts`):
 * its own execution environment, exactly its template's variables, its role's IAM checked on
 * every AWS call. A function that throws is thrown here again.
 */
import type { Context } from 'aws-lambda';
import type { InvocationResponse } from './function-invocation-server';

/** Where the global setup serves its functions (`function-invocation-server.ts`). */
export const FUNCTION_INVOCATIONS_ENVIRONMENT = 'INTEGRATION_FUNCTION_INVOCATIONS';
/** The local AWS endpoint the functions are given (`AWS_ENDPOINT_URL`). */
export const FUNCTIONS_AWS_ENDPOINT_ENVIRONMENT = 'INTEGRATION_FUNCTIONS_AWS_ENDPOINT';

function fromEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the integration tier's global setup did not run`);
  return value;
}

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${fromEnvironment(FUNCTION_INVOCATIONS_ENVIRONMENT)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} responded ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** Thrown when the function failed, as the in-process handler would have thrown. */
class BundledFunctionError extends Error {
  constructor(functionName: string, errorType: string, message: string) {
    super(`${functionName} failed: ${errorType}: ${message}`);
  }
}

/**
 * The module a test imports in place of a handler source: the function's `handler`, bundled.
 * The proxies that the integration setup writes require it (hence `@public` for knip).
 * @public
 */
export function bundledFunctionModule(functionName: string) {
  return {
    async handler(event: unknown, _context?: Context): Promise<unknown> {
      const response = (await post(
        `/functions/${encodeURIComponent(functionName)}/invocations`,
        event,
      )) as InvocationResponse;
      if ('error' in response) {
        throw new BundledFunctionError(functionName, response.error.errorType, response.error.errorMessage);
      }
      return response.result;
    },
  };
}

/** Resolves once the background jobs (asynchronous invocations) that the functions started are done. */
export async function bundledJobsSettled(): Promise<void> {
  await post('/async-invocations/settled', {});
}

/** The S3 endpoint the functions are given (presigned addresses start with it): the local endpoint. */
export const functionsS3Endpoint = (): string => fromEnvironment(FUNCTIONS_AWS_ENDPOINT_ENVIRONMENT);
