/**
 * The stack's key for page cursors (`page-cursor.ts`). In AWS it is a Secrets Manager secret
 * the stack generates, read on the first cursor a container signs or checks, not at module
 * init: the read (one GetSecretValue) is paid once per container by its first list request
 * instead of by every cold start. Locally the embedded stack makes a random key at first start
 * and keeps it under the data folder.
 *
 * The client's classes are imported at the top: esbuild then keeps only the one command used
 * (13 KB of bundle), where a dynamic import kept the whole client (29 KB) for the same init time.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Names the Secrets Manager secret that holds the key; set by the stack on list functions. */
export const CURSOR_KEY_SECRET_ENV = 'CURSOR_KEY_SECRET_ARN';
/** The key itself, hex; only the embedded (local) stack sets it. */
export const LOCAL_CURSOR_KEY_ENV = 'LOCAL_CURSOR_KEY';

let cursorKeyPromise: Promise<Buffer> | undefined;

async function loadCursorKey(): Promise<Buffer> {
  const localKey = process.env[LOCAL_CURSOR_KEY_ENV];
  if (localKey) return Buffer.from(localKey, 'hex');
  const secretArn = process.env[CURSOR_KEY_SECRET_ENV];
  if (!secretArn) throw new Error(`Environment variable ${CURSOR_KEY_SECRET_ENV} is not set`);
  const client = new SecretsManagerClient({});
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    if (!SecretString) throw new Error('The cursor key secret has no string value');
    return Buffer.from(SecretString, 'utf8');
  } finally {
    client.destroy();
  }
}

/**
 * The key, read once per container; a failed read is tried again by the next request.
 *
 * @example
 * const key = await cursorKey(); // Buffer
 */
export function cursorKey(): Promise<Buffer> {
  cursorKeyPromise ??= loadCursorKey().catch((error: unknown) => {
    cursorKeyPromise = undefined;
    throw error;
  });
  return cursorKeyPromise;
}

/** Forgets the key read (tests switch keys). */
export function forgetCursorKey(): void {
  cursorKeyPromise = undefined;
}
