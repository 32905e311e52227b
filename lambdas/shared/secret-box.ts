/**
 * Sealing of secrets the service must be able to read back (webhook signing secrets: HMAC keys
 * cannot be stored as a hash). In AWS they are encrypted with the stack's KMS key
 * (`SECRETS_KEY_ID`) under an encryption context naming their owner, so a sealed value copied to
 * another item does not open; only the functions granted `kms:Encrypt` (create, rotate) or
 * `kms:Decrypt` (delivery) can use it. Local mode uses AES-256-GCM with a key file
 * (`LOCAL_SECRETS_KEY_FILE`, created with mode 0600 on first use) and the same context as
 * additional authenticated data.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { callJson, KMS } from './aws-json-requests.js';

export const SECRETS_KEY_ID_ENVIRONMENT = 'SECRETS_KEY_ID';
export const LOCAL_SECRETS_KEY_FILE_ENVIRONMENT = 'LOCAL_SECRETS_KEY_FILE';

/** Who a secret belongs to; binds the sealed value to that owner. */
export type SecretContext = Record<string, string>;

const LOCAL_PREFIX = 'local:';
const KMS_PREFIX = 'kms:';

let localKey: Buffer | undefined;

function readLocalKey(file: string): Buffer {
  if (localKey) return localKey;
  if (!existsSync(file)) {
    // `wx`: of two processes creating it at once, the second fails and reads the first's key.
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  localKey = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  return localKey;
}

const contextBytes = (context: SecretContext) =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1))));

/** Encrypts a secret for its owner. */
export async function sealSecret(secret: string, context: SecretContext): Promise<string> {
  const localFile = process.env[LOCAL_SECRETS_KEY_FILE_ENVIRONMENT];
  if (localFile) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', readLocalKey(localFile), iv);
    cipher.setAAD(contextBytes(context));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${LOCAL_PREFIX}${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64')).join('.')}`;
  }
  const keyId = process.env[SECRETS_KEY_ID_ENVIRONMENT];
  if (!keyId) throw new Error(`${SECRETS_KEY_ID_ENVIRONMENT} is not set`);
  // KMS takes and gives blobs in base64.
  const { CiphertextBlob } = await callJson<{ CiphertextBlob?: string }>(KMS, 'Encrypt', {
    KeyId: keyId,
    Plaintext: Buffer.from(secret, 'utf8').toString('base64'),
    EncryptionContext: context,
  });
  if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
  return `${KMS_PREFIX}${CiphertextBlob}`;
}

/** Decrypts a value {@link sealSecret} made for the same owner. */
export async function openSecret(sealed: string, context: SecretContext): Promise<string> {
  if (sealed.startsWith(LOCAL_PREFIX)) {
    const localFile = process.env[LOCAL_SECRETS_KEY_FILE_ENVIRONMENT];
    if (!localFile) throw new Error(`${LOCAL_SECRETS_KEY_FILE_ENVIRONMENT} is not set`);
    const [iv, tag, data] = sealed
      .slice(LOCAL_PREFIX.length)
      .split('.')
      .map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', readLocalKey(localFile), iv as Buffer);
    decipher.setAAD(contextBytes(context));
    decipher.setAuthTag(tag as Buffer);
    return Buffer.concat([decipher.update(data as Buffer), decipher.final()]).toString('utf8');
  }
  const { Plaintext } = await callJson<{ Plaintext?: string }>(KMS, 'Decrypt', {
    CiphertextBlob: sealed.slice(KMS_PREFIX.length),
    EncryptionContext: context,
  });
  if (!Plaintext) throw new Error('KMS returned no plaintext');
  return Buffer.from(Plaintext, 'base64').toString('utf8');
}
