/**
 * Wallet login: `username@appId` and password in, a session token out. Every refusal is the
 * same 401, whatever its reason (unknown App or username, wrong password, wallet not active,
 * deleted or locked), and every attempt does the same work: the same four table calls (two
 * reads, the attempt's count, then the login or the end of its check; more calls, and waits,
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
import { setTimeout as sleep } from 'node:timers/promises';
import { recordLogin, releaseLoginCheck, reserveLoginAttempt } from '#repositories/login-throttle.js';
import { findWallet, findWalletIdByUsername, type WalletRecord } from '#repositories/wallet-repository.js';
import { insertSessionItem } from '#repositories/wallet-session-repository.js';
import { UnauthorizedError } from '#shared/errors.js';
import { logger } from '#shared/observability.js';
import type { Infer } from '#shared/schema.js';
import { UUID_PATTERN } from '#shared/schema.js';
import { verifyAgainstDecoy, verifyPassword } from './password-hash.js';
import { type walletLoginBody, walletUsername } from './wallet-schemas.js';
import { generateSessionToken, hashSessionToken, SESSION_LIFETIME_SECONDS } from './wallet-sessions.js';
import { fullUsernameOf, toWalletView, type WalletView } from './wallet-view.js';

type WalletLoginInput = Infer<typeof walletLoginBody.shape>;

export interface WalletLoginResult {
  token: string;
  expiresAt: string;
  wallet: WalletView;
}

const USERNAME = walletUsername();
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

/**
 * `username@appId` split at its last `@` (usernames never hold one), or undefined when malformed.
 * The username is read with the schema wallet creation uses (lengths in characters, that is
 * code points), so every wallet that can be created can log in.
 *
 * @example
 * parseFullUsername(`scanner-01@${appId}`) // { username: 'scanner-01', appId }
 */
export function parseFullUsername(fullUsername: string): { username: string; appId: string } | undefined {
  const at = fullUsername.lastIndexOf('@');
  if (at < 0) return undefined;
  const username = USERNAME.read(fullUsername.slice(0, at), 'username', []);
  const appId = fullUsername.slice(at + 1).toLowerCase();
  return username !== undefined && UUID_PATTERN.test(appId) ? { username, appId } : undefined;
}

/**
 * How long an attempt may wait for parallel attempts on the same wallet (lost counting races,
 * or a lock that a password being checked may still lift) before it is refused.
 */
const PARALLEL_WAIT_MS = 10_000;
/**
 * A login function stops after 29 s (`FUNCTION_TIMEOUT` in lib/bundled-function.ts): a check
 * mark older than this was left by an attempt that died.
 */
const CHECK_MARK_LIFETIME_MS = 30_000;

/** `<ISO time>#<uuid>`: unique, and tells others how long the check has been running. */
const newCheckMark = (now: number): string => `${new Date(now).toISOString()}#${randomUUID()}`;
const isLiveMark = (mark: string, now: number): boolean =>
  now - Date.parse(mark.slice(0, mark.indexOf('#'))) < CHECK_MARK_LIFETIME_MS;
const staleMarksOf = (wallet: WalletRecord | undefined, now: number): string[] =>
  (wallet?.loginChecksInFlight ?? []).filter((mark) => !isLiveMark(mark, now));

/** A short random pause, so that parallel attempts do not collide again in the next round. */
const jitter = (minMs: number, maxMs: number) => sleep(minMs + Math.random() * (maxMs - minMs));

/**
 * Counts the attempt on the wallet before its password is checked, so that every checked
 * password is counted and parallel guesses cannot outrun the lock: the attempt that makes the
 * count a multiple of 5 sets the lock in the same write, and leaves `checkMark` on the wallet
 * while its password is checked. Undefined when the attempt may not check a password: no such
 * wallet, not active, locked, or still held up by parallel attempts after
 * {@link PARALLEL_WAIT_MS}.
 *
 * Why it waits: attempts count as failures until they succeed, so 5 right passwords checked at
 * once have set the lock before one of them lifts it (more rounds alone cannot help). An attempt
 * that finds a lock waits only while a marked check may still lift it, so a lone guesser is
 * refused at once, as before. The count stays a compare-and-set, not an atomic ADD, because the
 * attempt that earns the lock must set it in the same write.
 */
async function reserveAttempt(
  appId: string,
  walletId: string,
  readWallet: WalletRecord | undefined,
  checkMark: string,
): Promise<{ wallet: WalletRecord; failedAttempts: number } | undefined> {
  const giveUpAt = Date.now() + PARALLEL_WAIT_MS;
  let wallet = readWallet;
  for (let round = 1; ; round++) {
    const now = Date.now();
    const nowIso = new Date(now).toISOString();
    const active = wallet?.status === 'active';
    const locked = wallet?.lockedUntil !== undefined && wallet.lockedUntil > nowIso;
    // The first write is made even when the read shows it must fail: an unknown, inactive or
    // locked wallet then costs the same table calls as a usable one.
    if (round === 1 || (active && !locked)) {
      const failedAttempts = (wallet?.failedLoginCount ?? 0) + 1;
      const lockSeconds = lockSecondsAfter(failedAttempts);
      const reserved = await reserveLoginAttempt(appId, walletId, {
        expectedFailedCount: failedAttempts - 1,
        nowIso,
        lockedUntil: lockSeconds > 0 ? new Date(now + lockSeconds * 1000).toISOString() : undefined,
        checkMark,
      });
      if (reserved && wallet) return { wallet, failedAttempts };
    }
    const liftable = wallet?.loginChecksInFlight?.some((mark) => isLiveMark(mark, now)) ?? false;
    if (!active || (locked && !liftable) || now >= giveUpAt) return undefined;
    // Racing parallel attempts on this wallet: read it again after a pause (longer while a
    // check in flight may lift the lock: that takes about one scrypt).
    await (locked ? jitter(20, 60) : jitter(0, 20));
    wallet = await findWallet(appId, walletId);
  }
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
  const checkMark = newCheckMark(now);
  // An unknown username reads and conditionally updates a wallet id that does not exist, so
  // that it costs the same table calls as a known one.
  const walletId = (await findWalletIdByUsername(name.appId, name.username)) ?? randomUUID();
  const readWallet = await findWallet(name.appId, walletId);
  // Marks left by attempts that died are cleared by the next refused or failed one.
  const releasedMarks = [checkMark, ...staleMarksOf(readWallet, now)];
  const reserved = await reserveAttempt(name.appId, walletId, readWallet, checkMark);
  if (!reserved) {
    await verifyAgainstDecoy(input.password);
    // Holds no mark: made so that a refusal costs the same calls as a failed check.
    await releaseMarks(name.appId, walletId, releasedMarks);
    throw loginRefused();
  }
  try {
    return await completeLogin(reserved.wallet, input.password, checkMark);
  } catch (error) {
    // Parallel attempts waiting for this check must learn at once that it did not lift the lock.
    await releaseMarks(name.appId, walletId, releasedMarks);
    throw error;
  }
}

/**
 * Takes check marks off the wallet. Best effort: a mark left behind only makes parallel
 * attempts wait until it goes stale, so a failure here must not turn the 401 into a 500.
 */
async function releaseMarks(appId: string, walletId: string, marks: string[]): Promise<void> {
  try {
    await releaseLoginCheck(appId, walletId, marks);
  } catch (error) {
    logger.warn('Could not take login check marks off a wallet', { appId, walletId, error });
  }
}

/** Checks the password of a counted attempt and, if right, starts the session. */
async function completeLogin(
  wallet: WalletRecord,
  password: string,
  checkMark: string,
): Promise<WalletLoginResult> {
  if (!(await verifyPassword(password, wallet.passwordHash))) throw loginRefused();

  const now = Date.now();
  const nowIso = new Date(now).toISOString();
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
  if (!(await recordLogin(wallet, nowIso, session, checkMark))) throw loginRefused();
  return { token, expiresAt, wallet: toWalletView({ ...wallet, lastLoginAt: nowIso }) };
}
