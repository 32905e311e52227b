/**
 * Ed25519 for browsers whose Web Crypto lacks it (Chrome before 137, Firefox before 129, Safari
 * before 17, all within the build's targets): `@noble/ed25519`, a small audited library, set as
 * the shared verifier's fallback. The verifier tries Web Crypto first and calls this only when
 * Web Crypto cannot import the key. Set here, in the console, so that the offline verifier (the
 * same `verifier/` module) keeps no dependency but Node.
 */
import { verifyAsync } from '@noble/ed25519';
import { setEd25519Fallback } from '../../../verifier/index';

/**
 * Whether `signature` is valid for `message` under `publicKey`, by RFC 8032's rules (noble's
 * strict branch, `zip215: false`, rather than its ZIP-215 default), as Web Crypto checks them.
 * A malformed key or signature is a failed check, not an error.
 */
export async function verifyEd25519WithNoble(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    return await verifyAsync(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** Makes the shared verifier fall back to `@noble/ed25519` where Web Crypto has no Ed25519. */
export function installEd25519Fallback(): void {
  setEd25519Fallback(verifyEd25519WithNoble);
}
