/**
 * The handler extension of creating POSTs (rows with `idempotent`): their handler files pass it
 * to `httpHandler`, so that no other function bundles the idempotency layer (`idempotency.ts`).
 */
import type { RequestExtensions } from './http-handler.js';
import { runIdempotently } from './idempotency.js';

export const idempotentRequests: RequestExtensions = { runIdempotently };
