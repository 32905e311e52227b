/**
 * `Idempotency-Key` on creating POSTs, with Powertools idempotency: a retry with the same key
 * and the same request gets the first answer again and creates nothing; the same key with
 * another request is 409 `IDEMPOTENCY_KEY_REUSED`; a retry while the first is still running is
 * 409 `IDEMPOTENCY_IN_PROGRESS`. Failed requests are not remembered (a retry runs again).
 * Without the header, requests run as usual.
 */
import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { idempotencyStore } from '#repositories/idempotency-store.js';
import { ConflictError, ValidationError } from './errors.js';
import { bodyBytes, headerValue } from './http-request.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/** What must be the same for a retry: the address and the body (its hash; a streamed upload: its length). */
function requestFingerprint(event: APIGatewayProxyEvent): string {
  const hash = createHash('sha256').update(`${event.httpMethod} ${event.path}\n`);
  if (event.body) hash.update(bodyBytes(event));
  else hash.update(`stream:${headerValue(event.headers, 'content-length') ?? ''}`);
  return hash.digest('hex');
}

/**
 * Runs `run` at most once per tenant, operation and `Idempotency-Key`.
 *
 * @example
 * const result = await runIdempotently('createCategory', tenantId, event, context, () => handle(request));
 */
export async function runIdempotently<T extends Record<string, unknown>>(
  operationId: string,
  tenantId: string,
  event: APIGatewayProxyEvent,
  context: Context | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const key = headerValue(event.headers, IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return run();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ValidationError([
      {
        field: IDEMPOTENCY_KEY_HEADER,
        code: 'FORMAT_INVALID',
        message: 'Idempotency-Key must be 1-255 visible ASCII characters',
      },
    ]);
  }
  // The answer is stored as JSON text: a DynamoDB map could not hold every JSON value (1e-200, "" keys).
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'fingerprint',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
  });
  // With the invocation's deadline, a request that times out does not hold its key "in progress".
  if (context?.getRemainingTimeInMillis) config.registerLambdaContext(context);
  const idempotent = makeIdempotent(
    async (_request: { key: string; fingerprint: string }) => ({ answer: JSON.stringify(await run()) }),
    {
      persistenceStore: idempotencyStore(tenantId),
      config,
      keyPrefix: operationId,
    },
  );
  try {
    const { answer } = await idempotent({ key, fingerprint: requestFingerprint(event) });
    return JSON.parse(answer) as T;
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request');
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ConflictError(
        'IDEMPOTENCY_IN_PROGRESS',
        'A request with this Idempotency-Key is still running',
      );
    }
    throw error;
  }
}
