/** The API key format: `ark_<24 hex key id>_<43 base64url characters of secret>`, stored as SHA-256. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { generateApiKey, hashApiKey, keyIdOf } from '../../lambdas/domain/identity/api-keys';

const KEY_PATTERN = /^ark_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/;

describe('generateApiKey', () => {
  it('gives a key of the documented form that embeds its key id', () => {
    // Act
    const { keyId, apiKey } = generateApiKey();
    // Assess
    expect(apiKey).toMatch(KEY_PATTERN);
    expect(keyId).toMatch(/^[0-9a-f]{24}$/);
    expect(apiKey.slice(4, 28)).toBe(keyId);
    expect(apiKey).toHaveLength(4 + 24 + 1 + 43);
  });

  it('gives a different key id and secret each time', () => {
    // Act
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    // Assess
    expect(new Set(keys.map((key) => key.keyId)).size).toBe(200);
    expect(new Set(keys.map((key) => key.apiKey.slice(29))).size).toBe(200);
  });
});

describe('keyIdOf', () => {
  it('finds the key id of a generated key', () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    // Act / Assess
    expect(keyIdOf(apiKey)).toBe(keyId);
  });

  it('finds the key id of every generated key (property)', () => {
    fc.assert(
      fc.property(fc.integer(), () => {
        const { keyId, apiKey } = generateApiKey();
        expect(keyIdOf(apiKey)).toBe(keyId);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['an empty string', ''],
    ['a key without prefix', `0123456789abcdef01234567_${'a'.repeat(43)}`],
    ['a wrong prefix', `ark-0123456789abcdef01234567_${'a'.repeat(43)}`],
    ['upper-case hex in the key id', `ark_0123456789ABCDEF01234567_${'a'.repeat(43)}`],
    ['a short key id', `ark_0123456789abcdef0123456_${'a'.repeat(43)}`],
    ['a short secret', `ark_0123456789abcdef01234567_${'a'.repeat(42)}`],
    ['a long secret', `ark_0123456789abcdef01234567_${'a'.repeat(44)}`],
    ['a secret with + and /', `ark_0123456789abcdef01234567_${'+/'.repeat(21)}a`],
    ['trailing whitespace', `ark_0123456789abcdef01234567_${'a'.repeat(43)} `],
  ])('is undefined for %s', (_label, apiKey) => {
    // Act / Assess
    expect(keyIdOf(apiKey)).toBeUndefined();
  });

  it('is undefined for any string that does not have the key form (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        fc.pre(!KEY_PATTERN.test(text));
        expect(keyIdOf(text)).toBeUndefined();
      }),
    );
  });
});

describe('hashApiKey', () => {
  it('is the hex SHA-256 of the whole key', () => {
    // Prepare
    const apiKey = `ark_0123456789abcdef01234567_${'a'.repeat(43)}`;
    // Act
    const hash = hashApiKey(apiKey);
    // Assess
    expect(hash).toBe(createHash('sha256').update(apiKey).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches the known SHA-256 test vector of "abc"', () => {
    // Act / Assess
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs for keys that differ in one character of the secret', () => {
    // Prepare
    const base = `ark_0123456789abcdef01234567_${'a'.repeat(43)}`;
    const other = `${base.slice(0, -1)}b`;
    // Act / Assess
    expect(hashApiKey(base)).not.toBe(hashApiKey(other));
  });
});
