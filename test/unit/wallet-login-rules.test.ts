/** The pure rules of wallet login: the throttle's delays and reading `username@appId`. */
import {
  LOGIN_THROTTLE,
  loginDelayMsAfter,
  parseFullUsername,
} from '../../lambdas/domain/wallets/wallet-login';

const APP_ID = '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f';

describe('loginDelayMsAfter', () => {
  it('lets the first 5 attempts through, and waits 2 s after the 5th failure', () => {
    // Act
    const delays = Array.from({ length: 7 }, (_, index) => loginDelayMsAfter(index));
    // Assess
    expect(delays).toEqual([0, 0, 0, 0, 0, 2000, 4000]);
    expect(LOGIN_THROTTLE).toMatchObject({ freeFailures: 5, firstDelayMs: 2000, maxDelayMs: 60_000 });
  });

  it('doubles each wait, up to one minute', () => {
    // Act
    const schedule = [5, 6, 7, 8, 9, 10, 11, 12, 5000, 5_000_000].map((failures) =>
      loginDelayMsAfter(failures),
    );
    // Assess
    expect(schedule).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 60_000]);
  });

  it('never waits for a count of zero or below', () => {
    // Assess
    expect(loginDelayMsAfter(0)).toBe(0);
    expect(loginDelayMsAfter(-5)).toBe(0);
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
