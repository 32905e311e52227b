/**
 * Byte helpers of the verifier: hex, standard base64 (RFC 4648 section 4), UTF-8, SHA-256.
 * Written here rather than imported so that the verifier runs unchanged in Node and in a
 * browser, with nothing but Web Crypto and TextEncoder.
 */

const HEX_DIGITS = '0123456789abcdef';
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Lowercase hex of the bytes. */
export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return text;
}

/** The bytes of a hex string (either case); throws on anything else. */
export function fromHex(text: string): Uint8Array {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new Error(`not hex: ${text.slice(0, 80)}`);
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    text += BASE64_ALPHABET[(chunk >> 18) & 63]! + BASE64_ALPHABET[(chunk >> 12) & 63]!;
    text += i + 1 < bytes.length ? BASE64_ALPHABET[(chunk >> 6) & 63]! : '=';
    text += i + 2 < bytes.length ? BASE64_ALPHABET[chunk & 63]! : '=';
  }
  return text;
}

/** The bytes of standard, padded base64; throws on anything else (a signature must not be read loosely). */
export function fromBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    throw new Error(`not base64: ${text.slice(0, 80)}`);
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    let chunk = 0;
    for (let j = 0; j < 4; j++) {
      const char = text[i + j]!;
      chunk = (chunk << 6) | (char === '=' ? 0 : BASE64_ALPHABET.indexOf(char));
    }
    for (const shift of [16, 8, 0]) if (at < bytes.length) bytes[at++] = (chunk >> shift) & 255;
  }
  if (toBase64(bytes) !== text) throw new Error(`not canonical base64: ${text.slice(0, 80)}`);
  return bytes;
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const fromUtf8 = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { fatal: true }).decode(bytes);

/** The parts one after the other. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  // The DOM's Web Crypto types (the console's build) take views of an ArrayBuffer only.
  const data = concatBytes(...parts) as Uint8Array<ArrayBuffer>;
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data));
}
