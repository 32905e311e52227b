/**
 * `Idempotency-Key` on creating POSTs: a retry with the same key and the same request gets the
 * first response again and creates nothing; the same key with another request is 409
 * `IDEMPOTENCY_KEY_REUSED`; a retry while the first is still running is 409
 * `IDEMPOTENCY_IN_PROGRESS`. Failed requests are not remembered (a retry runs again). Without
 * the header, requests run as usual.
 *
 * The flow is Powertools idempotency's, on the table through the document client every function
 * already holds (`repositories/idempotency-store.ts`): Powertools brought its own DynamoDB
 * client, its whole command set and a JMESPath engine, about 100 KB of every creating POST's
 * bundle.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import {
  claimIdempotencyRecord,
  completeIdempotencyRecord,
  type IdempotencyScope,
  releaseIdempotencyRecord,
} from '#repositories/idempotency-store.js';
import { ConflictError, ValidationError } from '#shared/errors.js';
import { SCRYPT_PARAMETERS, scryptKey } from '#shared/scrypt.js';
import { API_TIMEOUT_SECONDS } from './api-timeout.js';
import { bodyBytes, headerValue, parseJsonBody } from './http-request.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_WINDOW_SECONDS } from './idempotency-key.js';

/** How long a request without a known deadline holds its key: as long as API Gateway waits. */
const UNKNOWN_DEADLINE_MS = API_TIMEOUT_SECONDS * 1000;

/**
 * What must be the same for a retry: the address and the body (its hash; a streamed upload: its
 * length). The fingerprint is kept in the table for a day, so a secret field of the body (a
 * wallet's password) enters it only as an scrypt digest salted with the tenant, operation and
 * key: guessing the secret from it costs what guessing it from the stored password hash costs.
 */
async function requestFingerprint(
  event: APIGatewayProxyEvent,
  secretFields: readonly string[],
  salt: string,
): Promise<string> {
  const hash = createHash('sha256').update(`${event.httpMethod} ${event.path}\n`);
  if (!event.body) hash.update(`stream:${headerValue(event.headers, 'content-length') ?? ''}`);
  else if (secretFields.length === 0) hash.update(bodyBytes(event));
  else hash.update(JSON.stringify(await withSecretsDigested(parseJsonBody(event), secretFields, salt)));
  return hash.digest('hex');
}

/** The body with each secret field's text replaced by its scrypt digest. */
async function withSecretsDigested(body: unknown, secretFields: readonly string[], salt: string) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const digested: Record<string, unknown> = { ...body };
  for (const field of secretFields) {
    const secret = digested[field];
    if (typeof secret !== 'string') continue;
    const key = await scryptKey(secret, Buffer.from(salt, 'utf8'), 32, SCRYPT_PARAMETERS);
    digested[field] = `scrypt:${key.toString('base64url')}`;
  }
  return digested;
}

/**
 * Runs `run` at most once per tenant, operation and `Idempotency-Key`. `secretFields` name the
 * body fields that must not be recoverable from the stored fingerprint.
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
  secretFields: readonly string[] = [],
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
  const scope: IdempotencyScope = { tenantId, operationId, key };
  const fingerprint = await requestFingerprint(event, secretFields, `${tenantId}\n${operationId}\n${key}`);
  const held = await claimIdempotencyRecord(scope, fingerprint, {
    keepSeconds: IDEMPOTENCY_WINDOW_SECONDS,
    // Until the invocation's deadline: a request whose Lambda timed out does not hold its key.
    holdMs: context?.getRemainingTimeInMillis?.() ?? UNKNOWN_DEADLINE_MS,
  });
  if (held) {
    if (held.fingerprint !== fingerprint) {
      throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request');
    }
    if (held.status === 'COMPLETED') return JSON.parse(held.response) as T;
    throw new ConflictError(
      'IDEMPOTENCY_IN_PROGRESS',
      'A request with this Idempotency-Key is still running',
    );
  }
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await releaseIdempotencyRecord(scope);
    throw error;
  }
  // Stored as JSON text: a DynamoDB map could not hold every JSON value (1e-200, "" keys).
  await completeIdempotencyRecord(scope, JSON.stringify(result));
  return result;
}
