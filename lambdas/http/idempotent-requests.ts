/**
 * The handler extension of creating POSTs (rows with `idempotent`): their handler files pass it
 * to `httpHandler`, so that no other function bundles Powertools idempotency, and these load it
 * only for a request that carries an `Idempotency-Key` (its JMESPath engine and persistence
 * layer stay out of every cold start).
 */
import type { RequestExtensions } from './http-handler.js';
import { hasIdempotencyKey } from './idempotency-key.js';

export const idempotentRequests: RequestExtensions = {
  async runIdempotently(operationId, tenantId, event, context, run, secretFields) {
    if (!hasIdempotencyKey(event)) return run();
    const { runIdempotently } = await import('./idempotency.js');
    return runIdempotently(operationId, tenantId, event, context, run, secretFields);
  },
};
