/**
 * A cosignature check written from the C2SP texts alone (tlog-cosignature, signed-note), with
 * node:crypto and nothing of the project's verifier, so that a test of the witness does not
 * check the witness's code with itself:
 * - the vkey is `<name>+<8 hex key id>+base64(0x04 || 32-byte Ed25519 key)`;
 * - the key id is SHA-256(name || "\n" || 0x04 || key)[:4];
 * - the line is `— <name> base64(key id || u64 big-endian timestamp || 64-byte signature)`;
 * - the message is "cosignature/v1\n" "time <timestamp>\n" and the checkpoint's note text.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';

export interface CheckedCosignature {
  /** POSIX seconds. */
  timestamp: number;
}

/**
 * The cosignature by `cosignerKey` among `signatureLines` over `checkpointText`, checked;
 * throws with the reason when there is none or it does not verify.
 */
export function checkCosignature(
  cosignerKey: string,
  checkpointText: string,
  signatureLines: string,
): CheckedCosignature {
  const [name, keyIdHex, ...rest] = cosignerKey.split('+');
  const keyBytes = Buffer.from(rest.join('+'), 'base64');
  if (!name || keyBytes.length !== 33 || keyBytes[0] !== 0x04) throw new Error('not a type 0x04 vkey');
  const publicKey = keyBytes.subarray(1);
  const keyId = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([0x04]), publicKey]))
    .digest()
    .subarray(0, 4);
  if (keyId.toString('hex') !== keyIdHex) throw new Error('the vkey id does not match');
  const lines = signatureLines.split('\n').filter((line) => line !== '');
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a signature line: ${line}`);
    const bytes = Buffer.from(match[2] as string, 'base64');
    if (match[1] !== name || !bytes.subarray(0, 4).equals(keyId)) continue;
    if (bytes.length !== 4 + 8 + 64) throw new Error('an Ed25519 cosignature is 76 bytes');
    const timestamp = bytes.readBigUInt64BE(4);
    if (timestamp === 0n || timestamp >= 2n ** 63n) throw new Error(`bad timestamp ${timestamp}`);
    const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') },
      format: 'jwk',
    });
    if (!verify(null, message, key, bytes.subarray(12))) throw new Error('the cosignature does not verify');
    return { timestamp: Number(timestamp) };
  }
  throw new Error(`no cosignature by ${name}`);
}

/** The text of a signed note (up to and with the newline before the empty line). */
export const noteText = (note: string): string => note.slice(0, note.indexOf('\n\n') + 1);
