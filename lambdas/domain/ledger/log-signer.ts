/**
 * The log's Ed25519 signing key. In AWS a KMS key of spec ECC_NIST_EDWARDS25519 signs with
 * `ED25519_SHA_512` and `MessageType: RAW` (pure Ed25519 over the message, as signed notes
 * need; `ED25519_PH_SHA_512` would be the pre-hashed variant); the private key never leaves
 * KMS. Locally a key is made at first start and kept as PKCS#8 PEM under `DATA_DIR`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import {
  formatCheckpointBody,
  formatSignatureLine,
  formatVerifierKey,
  isValidKeyName,
  utf8,
} from '../../../verifier/index.js';

export interface LogSigner {
  /** The key name, which is also the log's origin line. */
  keyName: string;
  /** The raw 32-byte Ed25519 public key. */
  publicKey(): Promise<Uint8Array>;
  /** A 64-byte Ed25519 signature of the message. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function rawPublicKey(spki: Uint8Array): Uint8Array {
  const der = Buffer.from(spki);
  if (der.length !== 44 || !der.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) {
    throw new Error('The signing key is not an Ed25519 key');
  }
  return new Uint8Array(der.subarray(12));
}

function checkedKeyName(keyName: string): string {
  if (!isValidKeyName(keyName))
    throw new Error(`The log origin "${keyName}" may not hold white space or "+"`);
  return keyName;
}

/** A signer with a key file, made (readable by this user only) when it does not exist yet. */
export function localSigner(keyName: string, keyFile: string): LogSigner {
  let privateKey: KeyObject | undefined;
  const load = () => {
    if (privateKey) return privateKey;
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' });
      // `wx`: of two processes starting at once, one writes and the other reads its key.
      try {
        writeFileSync(keyFile, pem, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    privateKey = createPrivateKey(readFileSync(keyFile));
    return privateKey;
  };
  return {
    keyName: checkedKeyName(keyName),
    publicKey: async () => rawPublicKey(createPublicKey(load()).export({ format: 'der', type: 'spki' })),
    sign: async (message) => new Uint8Array(sign(null, message, load())),
  };
}

/** A signer with a KMS key (`ECC_NIST_EDWARDS25519`, usage SIGN_VERIFY). */
export function kmsSigner(keyName: string, keyId: string, kms = new KMSClient({})): LogSigner {
  let publicKey: Promise<Uint8Array> | undefined;
  return {
    keyName: checkedKeyName(keyName),
    publicKey() {
      publicKey ??= kms.send(new GetPublicKeyCommand({ KeyId: keyId })).then(({ PublicKey }) => {
        if (!PublicKey) throw new Error('KMS returned no public key');
        return rawPublicKey(PublicKey);
      });
      return publicKey;
    },
    async sign(message) {
      const { Signature } = await kms.send(
        new SignCommand({
          KeyId: keyId,
          Message: message,
          MessageType: 'RAW',
          SigningAlgorithm: 'ED25519_SHA_512',
        }),
      );
      if (Signature?.length !== 64) throw new Error('KMS returned no Ed25519 signature');
      return Signature as Uint8Array;
    },
  };
}

/** The log origin when none is configured. */
export const DEFAULT_LOG_ORIGIN = 'asset-registry.local/ledger';
/** The environment variables the signer is configured with (`lib/ledger-log.ts` sets the first two). */
export const LOG_ORIGIN_ENVIRONMENT = 'LEDGER_LOG_ORIGIN';
export const SIGNING_KEY_ID_ENVIRONMENT = 'LEDGER_SIGNING_KEY_ID';
const SIGNING_KEY_FILE_ENVIRONMENT = 'LEDGER_SIGNING_KEY_FILE';

/**
 * The signer this process is configured with: `LEDGER_SIGNING_KEY_ID` (KMS) in AWS,
 * `LEDGER_SIGNING_KEY_FILE` locally; the origin from `LEDGER_LOG_ORIGIN`.
 */
export function signerFromEnvironment(): LogSigner {
  const origin = process.env[LOG_ORIGIN_ENVIRONMENT] || DEFAULT_LOG_ORIGIN;
  const keyId = process.env[SIGNING_KEY_ID_ENVIRONMENT];
  if (keyId) return kmsSigner(origin, keyId);
  const keyFile = process.env[SIGNING_KEY_FILE_ENVIRONMENT];
  if (keyFile) return localSigner(origin, keyFile);
  throw new Error(`Neither ${SIGNING_KEY_ID_ENVIRONMENT} nor ${SIGNING_KEY_FILE_ENVIRONMENT} is set`);
}

/** The signed checkpoint of a tree head, and the verifier key that checks it. */
export async function signCheckpoint(
  signer: LogSigner,
  treeSize: number,
  rootHash: Uint8Array,
): Promise<{ checkpoint: string; verifierKey: string }> {
  const text = formatCheckpointBody(signer.keyName, treeSize, rootHash);
  const publicKey = await signer.publicKey();
  const signature = await signer.sign(utf8(text));
  return {
    checkpoint: `${text}\n${await formatSignatureLine(signer.keyName, publicKey, signature)}`,
    verifierKey: await formatVerifierKey(signer.keyName, publicKey),
  };
}
