/**
 * C2SP tlog-cosignature (c2sp.org/tlog-cosignature), the Ed25519 `cosignature/v1` type: a
 * witness's statement that, at a time, the checkpoint is the largest consistent tree head it
 * has seen of that log.
 * - a cosigner's verifier key is a vkey of signature type 0x04;
 * - the signed message is `cosignature/v1\ntime <timestamp>\n` followed by the checkpoint's
 *   whole note text;
 * - the signature line is `— <name> base64(key id || 8-byte big-endian timestamp || 64-byte
 *   Ed25519 signature)`.
 */
import { concatBytes, utf8 } from './bytes.js';
import {
  formatNoteSignature,
  formatVerifierKey,
  noteKeyId,
  parseVerifierKey,
  splitNote,
  type VerifierKey,
  verifyEd25519,
} from './signed-note.js';

/** The signature type of Ed25519 cosignatures (`cosignature/v1`). */
export const COSIGNATURE_TYPE = 0x04;
const TIMESTAMP_BYTES = 8;
const ED25519_SIGNATURE_BYTES = 64;

/** The message a cosigner signs for a checkpoint's note text at a POSIX time (seconds). */
export const cosignedMessage = (checkpointText: string, timestamp: number): Uint8Array =>
  utf8(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);

/** The verifier key (type 0x04) of a cosigner's Ed25519 public key. */
export const formatCosignerKey = (name: string, publicKey: Uint8Array): Promise<string> =>
  formatVerifierKey(name, publicKey, COSIGNATURE_TYPE);

/** Parses a cosigner's verifier key; throws with the reason when it is not of type 0x04. */
export const parseCosignerKey = (line: string): Promise<VerifierKey> =>
  parseVerifierKey(line, COSIGNATURE_TYPE);

function timestampBytes(timestamp: number): Uint8Array {
  const bytes = new Uint8Array(TIMESTAMP_BYTES);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(timestamp));
  return bytes;
}

/** The cosignature line, given the raw Ed25519 signature of `cosignedMessage(text, timestamp)`. */
export async function formatCosignatureLine(
  name: string,
  publicKey: Uint8Array,
  timestamp: number,
  signature: Uint8Array,
): Promise<string> {
  const keyId = await noteKeyId(name, publicKey, COSIGNATURE_TYPE);
  return formatNoteSignature(name, keyId, concatBytes(timestampBytes(timestamp), signature));
}

export interface CosignatureVerdict {
  ok: boolean;
  /** The cosigner's name (the key's). */
  name: string;
  /** POSIX seconds, when a cosignature verified. */
  timestamp?: number;
  reason?: string;
}

/**
 * Whether a note carries a valid cosignature of this cosigner: a signature line with the key's
 * name and id whose signature verifies over the note's text at the timestamp it carries.
 * Lines of other keys are ignored, as the spec asks.
 */
export async function verifyCosignature(note: string, cosigner: VerifierKey): Promise<CosignatureVerdict> {
  const { text, signatures } = splitNote(note);
  const own = signatures.filter(({ name, keyId }) => name === cosigner.name && keyId === cosigner.keyId);
  if (own.length === 0) return { ok: false, name: cosigner.name, reason: 'no cosignature of this witness' };
  for (const { signature } of own) {
    if (signature.length !== TIMESTAMP_BYTES + ED25519_SIGNATURE_BYTES) continue;
    const timestamp = new DataView(signature.buffer, signature.byteOffset).getBigUint64(0);
    if (timestamp >= 2n ** 63n) continue;
    const message = cosignedMessage(text, Number(timestamp));
    if (await verifyEd25519(cosigner.publicKey, message, signature.slice(TIMESTAMP_BYTES))) {
      return { ok: true, name: cosigner.name, timestamp: Number(timestamp) };
    }
  }
  return { ok: false, name: cosigner.name, reason: 'the cosignature does not verify' };
}
