/**
 * KMS on the local AWS endpoint, for the calls the functions make: `Sign` and `GetPublicKey`
 * with the log's Ed25519 key (`ED25519_SHA_512`, `RAW` messages, as `log-signer.ts` asks), and
 * `Encrypt`/`Decrypt` with a symmetric key (AES-256-GCM, the encryption context bound as
 * additional data, the key id inside the ciphertext as KMS keeps it). Key material is kept under
 * the data folder, one file per key, made at first use; the log's key is the file local mode has
 * always used (`ledger-signing-key.pem`), so a data folder keeps its log's key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServiceResponse } from '../iam/aws-refusals.js';
import type { EmulatedRequest, ServiceEmulator } from '../iam/local-aws-endpoint.js';

export interface KmsEmulatorOptions {
  region: string;
  accountId: string;
  /** Where key material is kept. */
  directory: string;
  /** Key files by key ARN that are not under `directory` (the log's signing key). */
  keyFiles?: Record<string, string>;
}

const response = (status: number, body: unknown, errorType?: string): ServiceResponse => ({
  status,
  headers: {
    'content-type': 'application/x-amz-json-1.1',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  },
  body: Buffer.from(JSON.stringify(errorType ? { __type: errorType, message: body } : body)),
});

/** Writes a file once: of two processes starting at once, one writes and the other reads it. */
function createOnce(path: string, content: string | Buffer): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The key a ciphertext of this emulator was made under: KMS keeps the key's id in the blob. */
export function keyArnOfCiphertext(blob: Buffer): string | undefined {
  const keyLength = blob[0] ?? 0;
  const keyArn = blob.subarray(1, 1 + keyLength).toString();
  return keyArn.startsWith('arn:aws:kms:') ? keyArn : undefined;
}

export function kmsEmulator(options: KmsEmulatorOptions): ServiceEmulator {
  const keyArnOf = (keyId: string) =>
    keyId.startsWith('arn:') ? keyId : `arn:aws:kms:${options.region}:${options.accountId}:key/${keyId}`;
  const fileOf = (keyArn: string, extension: string) =>
    options.keyFiles?.[keyArn] ?? join(options.directory, `${keyArn.split('/').pop()}.${extension}`);
  const signingKey = (keyArn: string) => {
    const file = fileOf(keyArn, 'pem');
    createOnce(file, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    return createPrivateKey(readFileSync(file));
  };
  const symmetricKey = (keyArn: string) => {
    const file = fileOf(keyArn, 'key');
    createOnce(file, randomBytes(32));
    return readFileSync(file);
  };
  const contextBytes = (context: unknown) =>
    Buffer.from(JSON.stringify(Object.entries((context ?? {}) as Record<string, string>).sort()));

  const operations: Record<string, (body: Record<string, unknown>) => ServiceResponse> = {
    GetPublicKey(body) {
      const keyArn = keyArnOf(String(body.KeyId));
      const publicKey = createPublicKey(signingKey(keyArn)).export({ format: 'der', type: 'spki' });
      return response(200, {
        KeyId: keyArn,
        PublicKey: publicKey.toString('base64'),
        KeySpec: 'ECC_NIST_EDWARDS25519',
        KeyUsage: 'SIGN_VERIFY',
        SigningAlgorithms: ['ED25519_SHA_512'],
      });
    },
    Sign(body) {
      if (body.SigningAlgorithm !== 'ED25519_SHA_512' || body.MessageType !== 'RAW') {
        return response(400, 'Local KMS signs RAW messages with ED25519_SHA_512 only', 'ValidationException');
      }
      const keyArn = keyArnOf(String(body.KeyId));
      const signature = sign(null, Buffer.from(String(body.Message), 'base64'), signingKey(keyArn));
      return response(200, {
        KeyId: keyArn,
        Signature: signature.toString('base64'),
        SigningAlgorithm: body.SigningAlgorithm,
      });
    },
    Encrypt(body) {
      const keyArn = keyArnOf(String(body.KeyId));
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', symmetricKey(keyArn), iv);
      cipher.setAAD(contextBytes(body.EncryptionContext));
      const sealed = Buffer.concat([
        cipher.update(Buffer.from(String(body.Plaintext), 'base64')),
        cipher.final(),
      ]);
      const keyBytes = Buffer.from(keyArn);
      const blob = Buffer.concat([Buffer.from([keyBytes.length]), keyBytes, iv, cipher.getAuthTag(), sealed]);
      return response(200, {
        KeyId: keyArn,
        CiphertextBlob: blob.toString('base64'),
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      });
    },
    Decrypt(body) {
      const blob = Buffer.from(String(body.CiphertextBlob), 'base64');
      const keyArn = keyArnOfCiphertext(blob);
      if (!keyArn)
        return response(400, 'The ciphertext is not one of this KMS', 'InvalidCiphertextException');
      const keyLength = Buffer.byteLength(keyArn);
      const iv = blob.subarray(1 + keyLength, 13 + keyLength);
      const tag = blob.subarray(13 + keyLength, 29 + keyLength);
      try {
        const decipher = createDecipheriv('aes-256-gcm', symmetricKey(keyArn), iv);
        decipher.setAAD(contextBytes(body.EncryptionContext));
        decipher.setAuthTag(tag);
        const plaintext = Buffer.concat([decipher.update(blob.subarray(29 + keyLength)), decipher.final()]);
        return response(200, {
          KeyId: keyArn,
          Plaintext: plaintext.toString('base64'),
          EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
        });
      } catch {
        return response(
          400,
          'The ciphertext or its encryption context is not valid',
          'InvalidCiphertextException',
        );
      }
    },
  };

  return async (request: EmulatedRequest) => {
    const operation = String(request.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
    const run = operations[operation];
    if (!run)
      return response(400, `Local KMS does not emulate ${operation}`, 'UnsupportedOperationException');
    return run(JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>);
  };
}
