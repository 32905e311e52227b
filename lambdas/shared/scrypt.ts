/**
 * scrypt, the slow salted hash behind every secret we keep a trace of (wallet passwords, and the
 * fingerprint of a request that carries one): guessing the secret back costs one scrypt per try.
 */
import { type ScryptOptions, scrypt } from 'node:crypto';

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and, on a 1024 MB Lambda, about 0.1-0.2 s per hash; above
 * the scrypt paper's interactive setting (2^14).
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;

/**
 * Derives `keyLength` bytes from `secret` (read in Unicode NFC, so that the same text composed
 * differently on two systems is the same secret) and `salt`.
 *
 * @example
 * const key = await scryptKey('correct horse', randomBytes(16), 32, SCRYPT_PARAMETERS);
 */
export function scryptKey(
  secret: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; leave room above Node's 32 MiB default.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
