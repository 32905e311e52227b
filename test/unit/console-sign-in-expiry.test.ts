/** When a person's sign-in ends in the console: at the ID token's `exp`, and never for a key (no browser). */
import type { Credential } from '../../console/src/session';
import { millisecondsLeft, watchExpiry } from '../../console/src/sign-in-expiry';

const NOW = Date.parse('2026-11-28T22:00:00.000Z');
const personExpiringIn = (milliseconds: number): Credential => ({
  kind: 'idToken',
  idToken: 'header.payload.signature',
  expiresAt: NOW + milliseconds,
});
const key: Credential = { kind: 'apiKey', apiKey: 'ar_live_example' };

describe('millisecondsLeft', () => {
  it("counts down to the ID token's expiry, stops at 0, and has nothing to count for a key", () => {
    // Act
    const left = [personExpiringIn(90_000), personExpiringIn(-5_000), key].map((credential) =>
      millisecondsLeft(credential, NOW),
    );
    // Assess
    expect(left).toEqual([90_000, 0, undefined]);
  });
});

describe('watchExpiry', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('says the sign-in has expired once, when the token expires, and not a moment before', () => {
    // Prepare
    const onExpired = jest.fn();
    watchExpiry(personExpiringIn(60_000), onExpired);
    // Act
    jest.advanceTimersByTime(59_999);
    const before = onExpired.mock.calls.length;
    jest.advanceTimersByTime(1);
    jest.advanceTimersByTime(600_000);
    // Assess
    expect({ before, after: onExpired.mock.calls.length }).toEqual({ before: 0, after: 1 });
  });

  it('says so at once for a token that has already expired', () => {
    // Prepare
    const onExpired = jest.fn();
    // Act
    watchExpiry(personExpiringIn(-1), onExpired);
    // Assess
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('waits past the longest timer for a long-lived token (re-armed, not fired early)', () => {
    // Prepare: 30 days, longer than setTimeout's 2^31 - 1 ms
    const thirtyDays = 30 * 24 * 3_600_000;
    const onExpired = jest.fn();
    watchExpiry(personExpiringIn(thirtyDays), onExpired);
    // Act
    jest.advanceTimersByTime(thirtyDays - 1);
    const before = onExpired.mock.calls.length;
    jest.advanceTimersByTime(1);
    // Assess
    expect({ before, after: onExpired.mock.calls.length }).toEqual({ before: 0, after: 1 });
  });

  it('stops watching when cancelled (sign-out), and never watches a key', () => {
    // Prepare
    const onExpired = jest.fn();
    const cancel = watchExpiry(personExpiringIn(60_000), onExpired);
    watchExpiry(key, onExpired);
    // Act
    cancel();
    jest.advanceTimersByTime(3_600_000);
    // Assess
    expect(onExpired).not.toHaveBeenCalled();
  });
});
