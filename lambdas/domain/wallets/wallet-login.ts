/**
 * Wallet login: `username@appId` and password in, a session token out. Every refusal is the
 * same 401, whatever its reason (unknown App or username, wrong password, wallet not active,
 * deleted or locked), and every attempt does the same work: the same three table calls (more
 * only when parallel attempts on one wallet race) and one scrypt verification, against a decoy
 * hash when there is no usable wallet.
 *
 * Throttling, per wallet: the 5th failed attempt in a row locks the wallet's logins for 60 s;
 * each further 5 failures (10th, 15th, ...) lock it again for twice as long as the last lock,
 * at most 1 hour. Attempts during a lock are refused without being counted (a correct password
 * too); a successful login or a new password set by the App resets the count. Each attempt is
 * counted before its password is checked, one at a time, so parallel guesses cannot outrun it.
 */
import { randomUUID } from 'node:crypto';
import {
  findWallet,
  findWalletIdByUsername,
  recordLogin,
  reserveLoginAttempt,
  type WalletRecord,
} from '#repositories/wallet-repository.js';
import { insertSessionItem } from '#repositories/wallet-session-repository.js';
import { UnauthorizedError } from '#shared/errors.js';
import type { Infer } from '#shared/schema.js';
import { UUID_PATTERN } from '#shared/schema.js';
import { verifyAgainstDecoy, verifyPassword } from './password-hash.js';
import {
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
  type walletLoginBody,
} from './wallet-schemas.js';
import { generateSessionToken, hashSessionToken, SESSION_LIFETIME_SECONDS } from './wallet-sessions.js';
import { fullUsernameOf, toWalletView, type WalletView } from './wallet-view.js';

type WalletLoginInput = Infer<typeof walletLoginBody.shape>;

export interface WalletLoginResult {
  token: string;
  expiresAt: string;
  wallet: WalletView;
}

/** Failed attempts in a row that lock a wallet's logins. */
export const LOGIN_FAILURES_PER_LOCK = 5;
export const FIRST_LOCK_SECONDS = 60;
export const MAX_LOCK_SECONDS = 60 * 60;

/** The one answer to every refused login. */
const loginRefused = () => new UnauthorizedError('Invalid username or password');

/**
 * How long the `failedAttempts`-th failure in a row locks the wallet: 0 unless it is a multiple
 * of {@link LOGIN_FAILURES_PER_LOCK}, then 60 s, 120 s, 240 s, ... at most 1 hour.
 *
 * @example
 * lockSecondsAfter(5) // 60
 * lockSecondsAfter(10) // 120
 */
export function lockSecondsAfter(failedAttempts: number): number {
  if (failedAttempts <= 0 || failedAttempts % LOGIN_FAILURES_PER_LOCK !== 0) return 0;
  const lockNumber = failedAttempts / LOGIN_FAILURES_PER_LOCK;
  // Past 2^6 minutes the cap applies anyway; the bound keeps the power small.
  return Math.min(FIRST_LOCK_SECONDS * 2 ** Math.min(lockNumber - 1, 16), MAX_LOCK_SECONDS);
}

/** `username@appId` split at its last `@` (usernames never hold one), or undefined when malformed. */
export function parseFullUsername(fullUsername: string): { username: string; appId: string } | undefined {
  const at = fullUsername.lastIndexOf('@');
  if (at < 0) return undefined;
  const username = fullUsername.slice(0, at);
  const appId = fullUsername.slice(at + 1).toLowerCase();
  const usernameValid =
    username.length >= USERNAME_MIN_LENGTH &&
    username.length <= USERNAME_MAX_LENGTH &&
    USERNAME_PATTERN.test(username);
  return usernameValid && UUID_PATTERN.test(appId) ? { username, appId } : undefined;
}

/** Rounds of "read the count, count one more" an attempt may lose to parallel attempts before it is refused. */
const RESERVATION_ROUNDS = 3;

/**
 * Counts the attempt on the wallet before its password is checked, so that every checked
 * password is counted and parallel guesses cannot outrun the lock: the attempt that makes the
 * count a multiple of 5 sets the lock in the same write (a correct password lifts it again).
 * Undefined when the attempt may not check a password: no such wallet, not active, locked, or
 * lost too many races with parallel attempts.
 */
async function reserveAttempt(
  appId: string,
  walletId: string,
  readWallet: WalletRecord | undefined,
  now: number,
): Promise<{ wallet: WalletRecord; failedAttempts: number } | undefined> {
  const nowIso = new Date(now).toISOString();
  let wallet = readWallet;
  for (let round = 1; round <= RESERVATION_ROUNDS; round++) {
    // The write is made even when the read shows it must fail: an unknown, inactive or locked
    // wallet then costs the same table calls as a known one.
    const usable = wallet?.status === 'active' && !(wallet.lockedUntil && wallet.lockedUntil > nowIso);
    const failedAttempts = (wallet?.failedLoginCount ?? 0) + 1;
    const lockSeconds = lockSecondsAfter(failedAttempts);
    const reserved = await reserveLoginAttempt(appId, walletId, {
      expectedFailedCount: failedAttempts - 1,
      nowIso,
      lockedUntil: lockSeconds > 0 ? new Date(now + lockSeconds * 1000).toISOString() : undefined,
    });
    if (reserved && wallet) return { wallet, failedAttempts };
    // A usable wallet refused the write: a parallel attempt was counted first; read again.
    if (!usable || round === RESERVATION_ROUNDS) return undefined;
    wallet = await findWallet(appId, walletId);
  }
  return undefined;
}

/**
 * Logs a wallet in and starts a session of {@link SESSION_LIFETIME_SECONDS}.
 *
 * @example
 * const { token, expiresAt, wallet } = await loginWallet({ username: `scanner-01@${appId}`, password });
 */
export async function loginWallet(input: WalletLoginInput): Promise<WalletLoginResult> {
  const name = parseFullUsername(input.username);
  if (!name) {
    await verifyAgainstDecoy(input.password);
    throw loginRefused();
  }
  const now = Date.now();
  const nowIso = new Date(now).toISOString();
  // An unknown username reads and conditionally updates a wallet id that does not exist, so
  // that it costs the same table calls as a known one.
  const walletId = (await findWalletIdByUsername(name.appId, name.username)) ?? randomUUID();
  const reserved = await reserveAttempt(name.appId, walletId, await findWallet(name.appId, walletId), now);
  if (!reserved) {
    await verifyAgainstDecoy(input.password);
    throw loginRefused();
  }
  const { wallet } = reserved;
  if (!(await verifyPassword(input.password, wallet.passwordHash))) throw loginRefused();

  const token = generateSessionToken();
  const expiresAt = new Date(now + SESSION_LIFETIME_SECONDS * 1000).toISOString();
  const fullUsername = fullUsernameOf(wallet.username, wallet.appId);
  const session = insertSessionItem({
    tokenHash: hashSessionToken(token),
    appId: wallet.appId,
    walletId: wallet.id,
    fullUsername,
    sessionVersion: wallet.sessionVersion,
    createdAt: nowIso,
    expiresAt,
  });
  // Refused when the wallet was suspended, deleted or given a new password meanwhile.
  if (!(await recordLogin(wallet, nowIso, session))) throw loginRefused();
  return { token, expiresAt, wallet: toWalletView({ ...wallet, lastLoginAt: nowIso }) };
}
