/**
 * When a person's sign-in ends: at the ID token's `exp`. The console renews nothing silently (it
 * holds no refresh token); it tells the person to sign in again. An API key does not expire here.
 */
import type { Credential } from './session';

/** The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days); a longer wait is re-armed. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Milliseconds left before the credential expires (0 once it has); undefined for a key. */
export const millisecondsLeft = (credential: Credential, now: number): number | undefined =>
  credential.kind === 'idToken' ? Math.max(0, credential.expiresAt - now) : undefined;

/**
 * Calls `onExpired` once, when the person's ID token expires (at once if it already has);
 * returns what cancels the watch. A key's credential is not watched.
 */
export function watchExpiry(credential: Credential, onExpired: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const left = millisecondsLeft(credential, Date.now());
    if (left === undefined) return;
    if (left === 0) onExpired();
    else timer = setTimeout(arm, Math.min(left, LONGEST_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}
