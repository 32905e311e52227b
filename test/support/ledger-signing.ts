/**
 * Signing checkpoints as the local log does, for browser tests that need a validly signed
 * checkpoint the log never published (a fork), or a key the log does not use.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
