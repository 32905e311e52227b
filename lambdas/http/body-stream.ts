/**
 * The request body as a stream. In AWS API Gateway hands the whole body to Lambda (at most
 * 6 MB), so the stream reads from memory. The local gateway, which takes uploads of up to
 * 50 MB, attaches the incoming request itself to the event instead, so that an upload flows
 * to storage without ever being held in memory whole.
 */
import { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { bodyBytes } from './http-request.js';

const attachedStreams = new WeakMap<APIGatewayProxyEvent, Readable>();

/** Local gateway only: the event's body is this stream. */
export function attachBodyStream(event: APIGatewayProxyEvent, stream: Readable): void {
  attachedStreams.set(event, stream);
}

export function requestBodyStream(event: APIGatewayProxyEvent): Readable {
  const attached = attachedStreams.get(event);
  if (attached) return attached;
  const body = bodyBytes(event);
  return Readable.from(body.length > 0 ? [body] : []);
}
