/**
 * The integration tier's door to the functions that its global setup runs
 * (`integration-global-setup.js`): jest's workers are other processes, so the proxies of
 * `bundled-function.ts` reach the functions over loopback HTTP. Not Lambda's Invoke on the local
 * AWS endpoint: that one keeps Lambda's 6 MB payload limit, while a test hands a handler the
 * event API Gateway would build for a 50 MB upload (which the local gateway streams instead).
 * - `POST /functions/<name>/invocations` with the event: `{result}`, or `{error}` when it threw;
 * - `POST /async-invocations/settled`: responds once no asynchronous invocation runs (the
 *   background jobs that the tests' requests started).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAll } from '../../lambdas/shared/aws-requests';
import { FunctionError, type LocalFunctions } from '../../local/functions/local-functions';

/** What an invocation returns: the function's result, or the error it ended with. */
export type InvocationResponse = { result: unknown } | { error: { errorType: string; errorMessage: string } };

const INVOKE_PATH = /^\/functions\/([^/]+)\/invocations$/;

async function responseOf(functions: LocalFunctions, request: IncomingMessage): Promise<[number, unknown]> {
  if (request.method === 'POST' && request.url === '/async-invocations/settled') {
    await functions.asyncInvocationsSettled();
    return [200, {}];
  }
  const name = INVOKE_PATH.exec(request.url ?? '')?.[1];
  if (request.method !== 'POST' || name === undefined) return [404, { message: `No ${request.url}` }];
  const event = JSON.parse((await readAll(request)).toString('utf8'));
  try {
    return [200, { result: await functions.invoke(decodeURIComponent(name), event) }];
  } catch (error) {
    if (!(error instanceof FunctionError)) throw error;
    return [200, { error: { errorType: error.errorType, errorMessage: error.message } }];
  }
}

/** Serves the functions on a free loopback port; resolves to the server and its URL. */
export async function startFunctionInvocationServer(
  functions: LocalFunctions,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    responseOf(functions, request).then(
      ([status, body]) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: String(error) }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
