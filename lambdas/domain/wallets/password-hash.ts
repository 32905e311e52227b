/**
 * Wallet passwords, stored only as scrypt hashes: `scrypt$N$r$p$<salt>$<hash>` (salt and hash in
 * base64url). The parameters travel with each hash, so raising them later leaves old hashes
 * verifiable. The password is hashed in Unicode NFC, so that the same text typed on two systems
 * that compose accents differently is the same password.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SCRYPT_PARAMETERS, scryptKey } from '#shared/scrypt.js';

const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Refuses stored parameters beyond these (a corrupt item must not make one login take minutes). */
const LIMITS = { maxN: 2 ** 20, maxR: 32, maxP: 16 };

const HASH_PATTERN = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/**
 * Hashes a password with a fresh random salt.
 *
 * @example
 * const stored = await hashPassword('correct horse'); // 'scrypt$32768$8$1$...$...'
 */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMETERS;
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptKey(password, salt, HASH_BYTES, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/**
 * Whether the password matches a stored hash (compared in constant time). A stored value that
 * is not a hash of this format never matches.
 *
 * @example
 * await verifyPassword('correct horse', stored); // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = HASH_PATTERN.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = Buffer.from(match[4] as string, 'base64url');
  const expected = Buffer.from(match[5] as string, 'base64url');
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > LIMITS.maxN || r < 1 || r > LIMITS.maxR || p < 1 || p > LIMITS.maxP) return false;
  if (expected.length < 16) return false;
  const actual = await scryptKey(password, salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}

let decoyHash: Promise<string> | undefined;

/**
 * Does the work of one verification and returns false: for logins of unknown or unusable
 * wallets, so that they take as long as a wrong password for a real one.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoyHash);
  return false;
}
