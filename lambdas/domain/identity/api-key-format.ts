/**
 * What an API key looks like: `ark_<keyId>_<secret>`. Apart from `api-keys.ts`, which reads the
 * table, so that request and response schemas (and the OpenAPI function's bundle) can state the
 * formats without the SDK.
 */

/** A key id: 24 hex digits, not secret. */
export const KEY_ID_PATTERN = /^[0-9a-f]{24}$/;

/** A whole key as issued; its first group is the key id. */
export const API_KEY_PATTERN = /^ark_([0-9a-f]{24})_[A-Za-z0-9_-]{43}$/;
