/**
 * Lambda's Invoke, on the local AWS endpoint: `POST /2015-03-31/functions/<name>/invocations`
 * runs the function in local mode's Lambda service (`local/functions/local-functions.ts`). With
 * `X-Amz-Invocation-Type: Event` it responds 202 at once and runs the function after (a failure
 * is logged); otherwise 200 with the result, or with `X-Amz-Function-Error: Unhandled` and the
 * error, as Lambda reports a function that threw. A function the stack does not have is
 * Lambda's 404 `ResourceNotFoundException`.
 */

import { FunctionError, type LocalFunctions } from '../functions/local-functions.js';
import type { ServiceResponse } from '../iam/aws-refusals.js';
import type { EmulatedRequest, ServiceEmulator } from '../iam/local-aws-endpoint.js';

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ServiceResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
});

/** The emulator of Lambda's Invoke over the given functions. */
export function lambdaEmulator(functions: LocalFunctions): ServiceEmulator {
  return async (request: EmulatedRequest) => {
    const match = INVOKE_PATH.exec(request.path);
    if (request.method !== 'POST' || !match) {
      return json(400, {
        Type: 'User',
        Message: `Local Lambda knows only Invoke, not ${request.method} ${request.path}`,
      });
    }
    const name = decodeURIComponent(match[1] as string);
    if (!functions.find(name)) {
      return json(
        404,
        { Type: 'User', Message: `Function not found: ${name}` },
        { 'x-amzn-errortype': 'ResourceNotFoundException' },
      );
    }
    const payload = request.body.length > 0 ? JSON.parse(request.body.toString('utf8')) : {};
    const invocationType = String(request.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (invocationType === 'Event') {
      functions.invokeAsync(name, payload);
      return { status: 202, headers: {}, body: Buffer.alloc(0) };
    }
    try {
      return json(200, await functions.invoke(name, payload));
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      return json(
        200,
        { errorType: error.errorType, errorMessage: error.message },
        { 'x-amz-function-error': 'Unhandled' },
      );
    }
  };
}
