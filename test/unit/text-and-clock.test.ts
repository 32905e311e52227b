/** Character counting, name comparison and time stamps. */
import { nextTimestamp, nowIso } from '../../lambdas/shared/clock';
import { characterCount, comparableName } from '../../lambdas/shared/text';

describe('characterCount', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['😀a', 2],
    ['👍🏽', 2], // a thumbs-up and a skin-tone modifier: two code points, one grapheme
    ['𝔸𝔹ℂ', 3],
  ])('counts %p as %d characters', (text, expected) => {
    // Act / Assess
    expect(characterCount(text)).toBe(expected);
  });
});

describe('comparableName', () => {
  it('lower-cases and normalizes to NFC, so composed and decomposed é compare equal', () => {
    // Prepare
    const composed = 'Caf\u00e9';
    const decomposed = 'CAFE\u0301';
    // Act / Assess
    expect(comparableName(composed)).toBe('caf\u00e9');
    expect(comparableName(decomposed)).toBe('caf\u00e9');
  });
});

describe('clock', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('writes now as ISO 8601 in UTC with milliseconds', () => {
    // Prepare
    jest.useFakeTimers({ now: new Date('2025-06-07T08:09:10.011Z') });
    // Act / Assess
    expect(nowIso()).toBe('2025-06-07T08:09:10.011Z');
  });

  it('gives now when now is later than the previous time stamp', () => {
    // Prepare
    jest.useFakeTimers({ now: new Date('2025-06-07T08:09:10.011Z') });
    // Act / Assess
    expect(nextTimestamp('2025-06-07T08:09:09.000Z')).toBe('2025-06-07T08:09:10.011Z');
  });

  it('gives one millisecond after the previous time stamp when the clock has not moved past it', () => {
    // Prepare
    jest.useFakeTimers({ now: new Date('2025-06-07T08:09:10.011Z') });
    // Act / Assess
    expect(nextTimestamp('2025-06-07T08:09:10.011Z')).toBe('2025-06-07T08:09:10.012Z');
    expect(nextTimestamp('2025-06-07T08:09:11.500Z')).toBe('2025-06-07T08:09:11.501Z');
  });
});
