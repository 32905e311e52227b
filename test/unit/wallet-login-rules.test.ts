/** The pure rules of wallet login: the lock schedule and reading `username@appId`. */
import {
  FIRST_LOCK_SECONDS,
  LOGIN_FAILURES_PER_LOCK,
  lockSecondsAfter,
  MAX_LOCK_SECONDS,
  parseFullUsername,
} from '../../lambdas/domain/wallets/wallet-login';

const APP_ID = '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f';

describe('lockSecondsAfter', () => {
  it('locks at every 5th failure in a row, and only then', () => {
    // Act
    const locks = Array.from({ length: 16 }, (_, index) => lockSecondsAfter(index));
    // Assess
    expect(locks).toEqual([0, 0, 0, 0, 0, 60, 0, 0, 0, 0, 120, 0, 0, 0, 0, 240]);
    expect([LOGIN_FAILURES_PER_LOCK, FIRST_LOCK_SECONDS, MAX_LOCK_SECONDS]).toEqual([5, 60, 3600]);
  });

  it('doubles each lock, up to one hour', () => {
    // Act
    const schedule = [5, 10, 15, 20, 25, 30, 35, 40, 5000, 5_000_000].map(lockSecondsAfter);
    // Assess
    expect(schedule).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600]);
  });

  it('never locks for a count of zero or below', () => {
    // Assess
    expect(lockSecondsAfter(0)).toBe(0);
    expect(lockSecondsAfter(-5)).toBe(0);
  });
});

describe('parseFullUsername', () => {
  it('splits username@appId', () => {
    // Act / Assess
    expect(parseFullUsername(`scanner-01@${APP_ID}`)).toEqual({ username: 'scanner-01', appId: APP_ID });
  });

  it('reads the App id in any case, as the ids are issued (lower case)', () => {
    // Act / Assess
    expect(parseFullUsername(`Scanner@${APP_ID.toUpperCase()}`)).toEqual({
      username: 'Scanner',
      appId: APP_ID,
    });
  });

  it.each([
    ['3 emoji', '🦊'.repeat(3)],
    ['50 emoji', '🦊'.repeat(50)],
    ['24 letters and 26 emoji', `${'a'.repeat(24)}${'😀'.repeat(26)}`],
  ])('counts the username in characters (code points), not UTF-16 units: accepts %s', (_label, username) => {
    // Act / Assess
    expect(parseFullUsername(`${username}@${APP_ID}`)).toEqual({ username, appId: APP_ID });
  });

  it.each([
    ['no @', 'scanner'],
    ['no App id', 'scanner@'],
    ['an App id that is no UUID', 'scanner@my-app'],
    ['two @ (usernames never hold one)', `a@b@${APP_ID}`],
    ['a username too short', `ab@${APP_ID}`],
    ['a username too long', `${'u'.repeat(51)}@${APP_ID}`],
    ['a username of 2 emoji (4 UTF-16 units)', `${'😀'.repeat(2)}@${APP_ID}`],
    ['a username of 51 emoji', `${'😀'.repeat(51)}@${APP_ID}`],
    ['a username with a control character', `tab\there@${APP_ID}`],
    ['nothing', ''],
  ])('finds nothing in a name with %s', (_label, fullUsername) => {
    // Act / Assess
    expect(parseFullUsername(fullUsername)).toBeUndefined();
  });
});
