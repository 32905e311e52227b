/**
 * C2SP signed-note (c2sp.org/signed-note) with Ed25519 keys (signature type 0x01):
 * - a verifier key is `<name>+<key id, 8 hex>+<base64(0x01 || 32-byte public key)>`;
 * - the key id is the first 4 bytes of SHA-256(name || "\n" || 0x01 || public key);
 * - a note is its text (ending in a newline), an empty line, then signature lines
 *   `— <name> <base64(key id || 64-byte signature)>`, each signing the text's bytes.
 */
import { concatBytes, equalBytes, fromBase64, fromHex, sha256, toBase64, toHex, utf8 } from './bytes.js';

/** The signature type of Ed25519 in signed notes. */
export const ED25519_SIGNATURE_TYPE = 0x01;
const EM_DASH_PREFIX = '\u2014 ';

export interface VerifierKey {
  name: string;
  /** 8 lowercase hex digits. */
  keyId: string;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/** A key name may not be empty nor hold white space or a `+`. */
export const isValidKeyName = (name: string): boolean => name.length > 0 && !/[\s+]/u.test(name);

/**
 * The 4-byte key id of a 32-byte Ed25519 key with this name: SHA-256(name || "\n" || type ||
 * key)[:4], the type being 0x01 for a note signer and 0x04 for a cosigner (tlog-cosignature).
 */
export async function noteKeyId(
  name: string,
  publicKey: Uint8Array,
  signatureType = ED25519_SIGNATURE_TYPE,
): Promise<Uint8Array> {
  const digest = await sha256(utf8(name), utf8('\n'), new Uint8Array([signatureType]), publicKey);
  return digest.slice(0, 4);
}

/** The verifier key line (vkey) of an Ed25519 public key of this signature type. */
export async function formatVerifierKey(
  name: string,
  publicKey: Uint8Array,
  signatureType = ED25519_SIGNATURE_TYPE,
): Promise<string> {
  const keyId = await noteKeyId(name, publicKey, signatureType);
  return `${name}+${toHex(keyId)}+${toBase64(concatBytes(new Uint8Array([signatureType]), publicKey))}`;
}

/**
 * Parses a verifier key line of a 32-byte Ed25519 key of this signature type (0x01, a note
 * signer, by default); throws with the reason when it is not one.
 */
export async function parseVerifierKey(
  line: string,
  signatureType = ED25519_SIGNATURE_TYPE,
): Promise<VerifierKey> {
  // Only the first two `+` separate: the base64 key may hold `+` itself.
  const [name = '', keyIdHex = '', ...keyParts] = line.trim().split('+');
  const keyBase64 = keyParts.join('+');
  if (keyParts.length === 0) throw new Error('a verifier key is <name>+<key id>+<base64 key>');
  if (!isValidKeyName(name)) throw new Error('the verifier key has an invalid name');
  if (!/^[0-9a-f]{8}$/.test(keyIdHex)) throw new Error('the verifier key id is not 8 lowercase hex digits');
  const key = fromBase64(keyBase64);
  if (key.length !== 33 || key[0] !== signatureType) {
    const type = `0x${signatureType.toString(16).padStart(2, '0')}`;
    throw new Error(`the verifier key is not an Ed25519 key of type ${type} (32 bytes)`);
  }
  const publicKey = key.slice(1);
  if (!equalBytes(await noteKeyId(name, publicKey, signatureType), fromHex(keyIdHex))) {
    throw new Error('the verifier key id does not match its name and key');
  }
  return { name, keyId: keyIdHex, publicKey };
}

export interface NoteSignature {
  name: string;
  keyId: string;
  signature: Uint8Array;
}

/** A note split into its text and its signature lines. */
export function splitNote(note: string): { text: string; signatures: NoteSignature[] } {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n'))
    throw new Error('a signed note is text, an empty line, and signatures');
  const text = note.slice(0, split + 1);
  const signatures = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      if (!line.startsWith(EM_DASH_PREFIX)) throw new Error('a signature line starts with "— "');
      const [name, encoded, ...rest] = line.slice(EM_DASH_PREFIX.length).split(' ');
      if (!name || !encoded || rest.length > 0) throw new Error('a signature line is "— <name> <signature>"');
      const bytes = fromBase64(encoded);
      if (bytes.length < 5) throw new Error('a signature is too short');
      return { name, keyId: toHex(bytes.slice(0, 4)), signature: bytes.slice(4) };
    });
  return { text, signatures };
}

/** An Ed25519 check: whether `signature` is valid for `message` under the 32-byte `publicKey`. */
export type Ed25519Verify = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>;

let ed25519Fallback: Ed25519Verify | undefined;

/**
 * Sets the Ed25519 check used where Web Crypto has no Ed25519 (its `importKey` throws: Chrome
 * before 137, Firefox before 129, Safari before 17). The module itself imports nothing, so the
 * offline verifier stays free of dependencies; the web console sets `@noble/ed25519` here
 * (`console/src/ledger/ed25519-fallback.ts`). `undefined` removes it.
 */
export function setEd25519Fallback(verify: Ed25519Verify | undefined): void {
  ed25519Fallback = verify;
}

/** Web Crypto here could not import an Ed25519 key (no Ed25519 in this browser). */
class Ed25519Unsupported extends Error {
  constructor(cause: unknown) {
    super(
      `this browser's Web Crypto has no Ed25519, so no signature can be checked (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
}

/**
 * Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`: Web Crypto's
 * Ed25519, or the fallback set with `setEd25519Fallback` when Web Crypto cannot import the key.
 */
export async function verifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 64) return false;
  // The DOM's Web Crypto types (the console's build) take views of an ArrayBuffer only.
  const view = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;
  const { subtle } = globalThis.crypto;
  const key = await subtle
    .importKey('raw', view(publicKey), { name: 'Ed25519' }, false, ['verify'])
    .catch((error: unknown) => new Ed25519Unsupported(error));
  if (key instanceof Ed25519Unsupported) {
    if (ed25519Fallback) return ed25519Fallback(publicKey, message, signature);
    throw key;
  }
  return subtle.verify({ name: 'Ed25519' }, key, view(signature), view(message));
}

/**
 * Opens a signed note with one trusted key: returns its text when a signature line of that key
 * verifies, and throws with the reason otherwise.
 */
export async function openNote(note: string, key: VerifierKey): Promise<string> {
  const { text, signatures } = splitNote(note);
  const own = signatures.filter((signature) => signature.name === key.name && signature.keyId === key.keyId);
  if (own.length === 0) throw new Error(`the note has no signature by the key ${key.name}+${key.keyId}`);
  for (const { signature } of own) {
    if (await verifyEd25519(key.publicKey, utf8(text), signature)) return text;
  }
  throw new Error(`the signature by ${key.name}+${key.keyId} does not verify`);
}

/** The signature line for `text`, given the raw 64-byte Ed25519 signature over its bytes. */
export async function formatSignatureLine(name: string, publicKey: Uint8Array, signature: Uint8Array) {
  return formatNoteSignature(name, await noteKeyId(name, publicKey), signature);
}

/** A signature line: `— <name> base64(key id || signature bytes)`. */
export const formatNoteSignature = (name: string, keyId: Uint8Array, signature: Uint8Array): string =>
  `${EM_DASH_PREFIX}${name} ${toBase64(concatBytes(keyId, signature))}\n`;
