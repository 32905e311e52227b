/**
 * The `Idempotency-Key` header and how long a key is remembered: what every creating POST needs
 * to know, apart from the Powertools idempotency machinery (`idempotency.ts`), which loads only
 * when a request carries the header.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { headerValue } from './http-request.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/** Whether the request names an `Idempotency-Key` (valid or not). */
export const hasIdempotencyKey = (event: APIGatewayProxyEvent): boolean =>
  headerValue(event.headers, IDEMPOTENCY_KEY_HEADER) !== undefined;
