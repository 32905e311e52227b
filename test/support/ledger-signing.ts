/**
 * Signing checkpoints as the local log does, for browser tests that need a validly signed
 * checkpoint the log never published (a fork), or a key the log does not use; and a signer
 * whose key lives in memory, for the sequencer's unit tests.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogSigner } from '../../lambdas/domain/ledger/log-signer';
import { formatCheckpointBody, formatSignatureLine, formatVerifierKey } from '../../verifier/index';

/** The local log's own signing key, as `npm start` keeps it in its data folder. */
export const localLogKey = (dataDirectory: string): KeyObject =>
  createPrivateKey(readFileSync(join(dataDirectory, 'ledger-signing-key.pem')));

const rawPublicKey = (privateKey: KeyObject): Uint8Array =>
  Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');

/** A signed checkpoint note with any root, signed by `privateKey`. */
export async function signedCheckpoint(
  privateKey: KeyObject,
  origin: string,
  treeSize: number,
  rootHash: Uint8Array,
): Promise<string> {
  const text = formatCheckpointBody(origin, treeSize, rootHash);
  const signature = sign(null, Buffer.from(text), privateKey);
  return `${text}\n${await formatSignatureLine(origin, rawPublicKey(privateKey), signature)}`;
}

/** The verifier key line of a new Ed25519 key with this name: well-formed, but not the log's. */
export function strangerVerifierKey(name: string): Promise<string> {
  return formatVerifierKey(name, rawPublicKey(generateKeyPairSync('ed25519').privateKey));
}

/** An Ed25519 log signer whose key lives in memory. */
export function inMemorySigner(): LogSigner {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = rawPublicKey(privateKey);
  return {
    keyName: 'asset-registry.test/ledger',
    publicKey: async () => publicKey,
    sign: async (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}
