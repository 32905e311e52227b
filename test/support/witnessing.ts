/**
 * Witnesses for the clients' tests: Ed25519 keys made with Node's crypto, and cosignatures
 * (c2sp.org/tlog-cosignature, `cosignature/v1`) appended to a signed checkpoint as the C2SP
 * text defines them, built here by hand rather than with the verifier's formatters, so that a
 * test does not check the verifier against itself.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  formatCheckpointBody,
  formatCosignerKey,
  formatSignatureLine,
  formatVerifierKey,
} from '../../verifier/index';

export interface TestSigner {
  name: string;
  privateKey: KeyObject;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/** A new Ed25519 key under this name (a log's origin, or a witness's name). */
export function newSigner(name: string): TestSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    name,
    privateKey,
    publicKey: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(12)),
  };
}

/** A checkpoint note at this size and root, signed by the log (whose name is the origin). */
export async function logSignedCheckpoint(log: TestSigner, treeSize: number, rootHash: Uint8Array) {
  const text = formatCheckpointBody(log.name, treeSize, rootHash);
  const signature = new Uint8Array(sign(null, Buffer.from(text), log.privateKey));
  return `${text}\n${await formatSignatureLine(log.name, log.publicKey, signature)}`;
}

/** The note with one more signature line: the witness's cosignature of its text at `timestamp`. */
export function cosigned(note: string, witness: TestSigner, timestamp = 1_790_000_000): string {
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const keyId = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${witness.name}\n`), Buffer.from([0x04]), witness.publicKey]))
    .digest()
    .subarray(0, 4);
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = sign(null, Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`), witness.privateKey);
  return `${note}— ${witness.name} ${Buffer.concat([keyId, time, signature]).toString('base64')}\n`;
}

/**
 * A tlog-policy text: the log (when given), each witness under its own name, then the quorum
 * lines as written (`group ...` and `quorum ...`).
 */
export async function policyText(
  log: TestSigner | undefined,
  witnesses: TestSigner[],
  quorumLines: string,
): Promise<string> {
  const lines = log ? [`log ${await formatVerifierKey(log.name, log.publicKey)}`] : [];
  for (const witness of witnesses)
    lines.push(`witness ${witness.name} ${await formatCosignerKey(witness.name, witness.publicKey)}`);
  return `${[...lines, quorumLines].join('\n')}\n`;
}
