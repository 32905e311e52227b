/** Wallet password hashing (scrypt), offline. */
import { scryptSync } from 'node:crypto';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../lambdas/domain/wallets/password-hash';
import { SCRYPT_PARAMETERS } from '../../lambdas/shared/scrypt';

const STORED_FORMAT = /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/;

describe('hashPassword', () => {
  it('stores scrypt$N$r$p$salt$hash with N=2^15, r=8, p=1, a 16-byte salt and a 32-byte hash', async () => {
    // Act
    const stored = await hashPassword('correct horse');
    // Assess
    expect(stored).toMatch(STORED_FORMAT);
    expect(SCRYPT_PARAMETERS).toEqual({ N: 32768, r: 8, p: 1 });
  });

  it('salts each hash anew: the same password twice gives two hashes', async () => {
    // Act
    const [first, second] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    // Assess
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
  });

  it('never holds the password itself', async () => {
    // Act
    const stored = await hashPassword('correct horse');
    // Assess
    expect(stored).not.toContain('correct horse');
    expect(stored).not.toContain(Buffer.from('correct horse').toString('base64url'));
  });
});

describe('verifyPassword', () => {
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword('correct horse');
  });

  it('round-trips: the password matches its hash', async () => {
    // Act / Assess
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
  });

  it.each([
    ['another password', 'battery staple'],
    ['another case', 'Correct horse'],
    ['a trailing space', 'correct horse '],
    ['an empty password', ''],
  ])('refuses %s', async (_label, candidate) => {
    // Act / Assess
    await expect(verifyPassword(candidate, stored)).resolves.toBe(false);
  });

  it('treats the composed and decomposed forms of an accent as the same password (NFC)', async () => {
    // Prepare
    const composed = await hashPassword('caf\u00e9 au lait');
    // Act / Assess
    await expect(verifyPassword('cafe\u0301 au lait', composed)).resolves.toBe(true);
  });

  it('verifies a hash made with other parameters, read from the stored value', async () => {
    // Prepare: a hash of N=2^10 made by hand in the same format
    const salt = Buffer.from('0123456789abcdef');
    const digest = scryptSync('correct horse', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored1024 = `scrypt$1024$8$1$${salt.toString('base64url')}$${digest.toString('base64url')}`;
    // Act / Assess
    await expect(verifyPassword('correct horse', stored1024)).resolves.toBe(true);
    await expect(verifyPassword('wrong', stored1024)).resolves.toBe(false);
  });

  it.each([
    ['an empty value', ''],
    ['another algorithm', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    [
      'an N that is no power of two',
      'scrypt$1000$8$1$MDEyMzQ1Njc4OWFiY2RlZg$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    [
      'an N beyond 2^20 (minutes of work)',
      'scrypt$4194304$8$1$MDEyMzQ1Njc4OWFiY2RlZg$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    ['a p of 0', 'scrypt$1024$8$0$MDEyMzQ1Njc4OWFiY2RlZg$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a digest too short to mean anything', 'scrypt$1024$8$1$MDEyMzQ1Njc4OWFiY2RlZg$AAAA'],
  ])('refuses, without throwing, a stored value with %s', async (_label, corrupt) => {
    // Act / Assess
    await expect(verifyPassword('correct horse', corrupt)).resolves.toBe(false);
  });
});

describe('verifyAgainstDecoy', () => {
  it('returns false, whatever the password', async () => {
    // Act / Assess
    await expect(verifyAgainstDecoy('correct horse')).resolves.toBe(false);
    await expect(verifyAgainstDecoy('')).resolves.toBe(false);
  });

  it('takes about as long as a real verification (it does the same scrypt work)', async () => {
    // Prepare
    const stored = await hashPassword('correct horse');
    await verifyAgainstDecoy('warm-up'); // the decoy hash is made once, lazily
    // Act
    const realStart = process.hrtime.bigint();
    await verifyPassword('wrong guess', stored);
    const realNs = Number(process.hrtime.bigint() - realStart);
    const decoyStart = process.hrtime.bigint();
    await verifyAgainstDecoy('wrong guess');
    const decoyNs = Number(process.hrtime.bigint() - decoyStart);
    // Assess: same order of magnitude (loose bounds: shared CI machines are noisy)
    expect(decoyNs).toBeGreaterThan(realNs / 4);
    expect(decoyNs).toBeLessThan(realNs * 4);
  });
});
