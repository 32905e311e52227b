/**
 * The request body as a stream. In AWS API Gateway hands the whole body to Lambda (at most
 * 6 MB), so the stream reads from memory. The local gateway, which takes uploads of up to
 * 50 MB, attaches the incoming request itself to the event instead, so that an upload flows
 * to storage without ever being held in memory whole.
 */
import { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { bodyBytes } from './http-request.js';

/**
 * Where the stream rides on the event: a registered symbol, because local mode's Lambda runtime
 * (`local/functions/lambda-runtime.cjs`) attaches it from outside the function's bundle, which
 * holds its own copy of this module.
 */
const BODY_STREAM = Symbol.for('asset-registry.local.body-stream');
type EventWithStream = APIGatewayProxyEvent & { [BODY_STREAM]?: Readable };

/** Local mode only: the event's body is this stream. */
export function attachBodyStream(event: APIGatewayProxyEvent, stream: Readable): void {
  Object.defineProperty(event, BODY_STREAM, { value: stream, enumerable: false });
}

export function requestBodyStream(event: APIGatewayProxyEvent): Readable {
  const attached = (event as EventWithStream)[BODY_STREAM];
  if (attached) return attached;
  const body = bodyBytes(event);
  return Readable.from(body.length > 0 ? [body] : []);
}
