/**
 * Wallet login: `username@appId` and password in, a session token out. Every refusal of the
 * credentials is the same 401, whatever its reason (unknown App or username, wrong password,
 * wallet not active or deleted), and every such attempt does the same work: one scrypt
 * verification, against a decoy hash when there is no usable wallet.
 *
 * Throttling, per username and source address (see {@link LOGIN_THROTTLE}): the first 5
 * attempts from one address on one username go through; after the 5th failure in a row, the
 * next attempt from that address must wait 2 s, then 4 s, 8 s, ... at most 60 s after the
 * failure before. An attempt made before its wait is over gets 429 `TOO_MANY_REQUESTS` with
 * `Retry-After`, without its password being checked and without being counted. A success
 * clears the address's count; 15 minutes without an attempt forget it. Other addresses are
 * never affected, so no one can keep a wallet's owner out. The count is kept by username, not
 * by wallet id, so unknown usernames are throttled alike and a 429 tells nothing of existence.
 * Each attempt is counted before its password is checked, one at a time (compare and set), so
 * parallel guesses from one address cannot outrun the wait.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  clearLoginThrottle,
  countLoginAttempt,
  findLoginThrottle,
  type LoginSource,
  recordLogin,
  restartLoginWait,
} from '#repositories/login-throttle.js';
import { findWallet, findWalletIdByUsername, type WalletRecord } from '#repositories/wallet-repository.js';
import { insertSessionItem } from '#repositories/wallet-session-repository.js';
import { ApiError, UnauthorizedError } from '#shared/errors.js';
import { logger } from '#shared/observability.js';
import type { Infer } from '#shared/schema.js';
import { UUID_PATTERN } from '#shared/schema.js';
import { findAppWalletUsageKey } from './app-wallet-usage.js';
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

/** The numbers of the login throttle (milliseconds). Tests may shorten the delays. */
export interface LoginThrottleSettings {
  /** Failures in a row from one address before the next attempt has to wait. */
  freeFailures: number;
  /** The wait after the `freeFailures`-th failure; each further failure doubles it. */
  firstDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** How long an address's count is kept after its last attempt. */
  resetAfterMs: number;
  /** How long an attempt keeps trying to be counted while parallel attempts race it. */
  countingRaceMs: number;
}

export const LOGIN_THROTTLE: LoginThrottleSettings = {
  freeFailures: 5,
  firstDelayMs: 2000,
  maxDelayMs: 60_000,
  resetAfterMs: 15 * 60_000,
  countingRaceMs: 2000,
};

/**
 * How long the address must wait after its `failures`-th failure in a row before trying again:
 * 0 below {@link LoginThrottleSettings.freeFailures}, then 2 s, 4 s, 8 s, ... at most 60 s.
 *
 * @example
 * loginDelayMsAfter(5) // 2000
 * loginDelayMsAfter(7) // 8000
 * loginDelayMsAfter(50) // 60000
 */
export function loginDelayMsAfter(
  failures: number,
  settings: LoginThrottleSettings = LOGIN_THROTTLE,
): number {
  if (failures < settings.freeFailures) return 0;
  // Past 2^16 the cap applies anyway; the bound keeps the power small.
  const doublings = Math.min(failures - settings.freeFailures, 16);
  return Math.min(settings.firstDelayMs * 2 ** doublings, settings.maxDelayMs);
}

/** 429 `TOO_MANY_REQUESTS` with the seconds to wait in `Retry-After`. */
class LoginThrottledError extends ApiError<'TOO_MANY_REQUESTS'> {
  constructor(readonly retryAfterSeconds: number) {
    super(
      'TOO_MANY_REQUESTS',
      `Too many failed logins for this username from this address; retry in ${retryAfterSeconds} s`,
    );
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

const throttled = (blockedUntil: number, now: number) =>
  new LoginThrottledError(Math.max(1, Math.ceil((blockedUntil - now) / 1000)));

/** The one response to every refused login. */
const loginRefused = () => new UnauthorizedError('Invalid username or password');

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

/** A short random pause, so that parallel attempts do not collide again in the next round. */
const jitter = (maxMs: number) => sleep(Math.random() * maxMs);

/**
 * Counts the attempt for its address and username before its password is checked; throws the
 * 429 when the address must still wait. The attempt that reaches the free failures sets the
 * wait in the same write, as if it had failed already: a success clears it again. Compare and
 * set on the count, so that parallel attempts are counted one by one; an attempt still losing
 * the race after {@link LoginThrottleSettings.countingRaceMs} gets 429 too.
 */
async function countAttempt(source: LoginSource): Promise<number> {
  const giveUpAt = Date.now() + LOGIN_THROTTLE.countingRaceMs;
  for (;;) {
    const now = Date.now();
    const record = await findLoginThrottle(source, now);
    if (record?.blockedUntil !== undefined && record.blockedUntil > now)
      throw throttled(record.blockedUntil, now);
    const attempts = (record?.attempts ?? 0) + 1;
    const delayMs = loginDelayMsAfter(attempts);
    const counted = await countLoginAttempt(source, {
      expectedStored: record?.storedAttempts,
      attempts,
      blockedUntil: delayMs > 0 ? now + delayMs : undefined,
      now,
      expiresAt: now + LOGIN_THROTTLE.resetAfterMs,
    });
    if (counted) return attempts;
    if (Date.now() >= giveUpAt) throw new LoginThrottledError(1);
    await jitter(20);
  }
}

/**
 * Logs a wallet in and starts a session of {@link SESSION_LIFETIME_SECONDS}. `sourceAddress`
 * is the caller's address (API Gateway's `sourceIp`), which the throttle counts attempts by.
 *
 * @example
 * const { token, expiresAt, wallet } = await loginWallet({ username: `scanner-01@${appId}`, password }, '203.0.113.7');
 */
export async function loginWallet(
  input: WalletLoginInput,
  sourceAddress: string,
): Promise<WalletLoginResult> {
  const name = parseFullUsername(input.username);
  if (!name) {
    await verifyAgainstDecoy(input.password);
    throw loginRefused();
  }
  const source: LoginSource = { appId: name.appId, username: name.username, sourceAddress };
  const attempts = await countAttempt(source);
  let result: WalletLoginResult;
  try {
    result = await checkAndStartSession(name.appId, name.username, input.password);
  } catch (error) {
    if (error instanceof UnauthorizedError) await restartWait(source, attempts);
    throw error;
  }
  await forgetAttempts(source);
  return result;
}

/** Finds the wallet and checks the password (against a decoy when there is no usable wallet). */
async function checkAndStartSession(
  appId: string,
  username: string,
  password: string,
): Promise<WalletLoginResult> {
  // An unknown username reads a wallet id that does not exist, so that it costs the same table
  // calls as a known one.
  const walletId = (await findWalletIdByUsername(appId, username)) ?? randomUUID();
  const [wallet, usageIdentifierKey] = await Promise.all([
    findWallet(appId, walletId),
    findAppWalletUsageKey(appId),
  ]);
  if (wallet?.status !== 'active') {
    await verifyAgainstDecoy(password);
    throw loginRefused();
  }
  return completeLogin(wallet, password, usageIdentifierKey);
}

/**
 * After a failure that earns a wait, starts the wait again from now (it was set when the attempt
 * was counted, before the password check). Best effort: the wait set then still holds.
 */
async function restartWait(source: LoginSource, attempts: number): Promise<void> {
  const delayMs = loginDelayMsAfter(attempts);
  if (delayMs === 0) return;
  try {
    await restartLoginWait(source, attempts, Date.now() + delayMs);
  } catch (error) {
    logger.warn('Could not restart the login wait of an address', { appId: source.appId, error });
  }
}

/**
 * Clears the address's count after a success. Best effort: a count left behind only makes the
 * address wait sooner, so a failure here must not turn the 200 into a 500.
 */
async function forgetAttempts(source: LoginSource): Promise<void> {
  try {
    await clearLoginThrottle(source, Date.now());
  } catch (error) {
    logger.warn('Could not clear the login throttle of an address', { appId: source.appId, error });
  }
}

/** Checks the password of a counted attempt and, if right, starts the session. */
async function completeLogin(
  wallet: WalletRecord,
  password: string,
  usageIdentifierKey: string | undefined,
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
    // The App's own usage key, so that the session's calls count against the App's plan.
    ...(usageIdentifierKey ? { usageIdentifierKey } : {}),
  });
  // Refused when the wallet was suspended, deleted or given a new password meanwhile.
  if (!(await recordLogin(wallet, nowIso, session))) throw loginRefused();
  return { token, expiresAt, wallet: toWalletView({ ...wallet, lastLoginAt: nowIso }) };
}
