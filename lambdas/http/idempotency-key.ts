/**
 * The `Idempotency-Key` header and how long a key is remembered, apart from the idempotency
 * layer (`idempotency.ts`), for the modules that only name them (the OpenAPI document).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
