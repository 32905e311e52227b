/**
 * The console's Ed25519 fallback (issue 14): where Web Crypto cannot import an Ed25519 key
 * (Chrome before 137, Firefox before 129, Safari before 17), the shared verifier checks signatures with
 * `@noble/ed25519`, and gives the same verdicts; without a fallback it says why it cannot.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyEd25519WithNoble } from '../../console/src/ledger/ed25519-fallback';
import {
  formatCheckpointBody,
  formatSignatureLine,
  formatVerifierKey,
  setEd25519Fallback,
  verifyCheckpoint,
  verifyEd25519,
} from '../../verifier/index.js';

// noble ships ES modules only and jest runs CommonJS (transforming only @middy): compiled here
// with the same swc the tests are compiled with.
jest.mock('@noble/ed25519', () => {
  const { transformFileSync } = jest.requireActual<typeof import('@swc/core')>('@swc/core');
  const { code } = transformFileSync(require.resolve('@noble/ed25519'), {
    jsc: { target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const compiled: { exports: Record<string, unknown> } = { exports: {} };
  new Function('module', 'exports', 'require', code)(compiled, compiled.exports, require);
  return compiled.exports;
});

const keys = generateKeyPairSync('ed25519');
const publicKey = new Uint8Array(keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
const signed = (text: string) => new Uint8Array(sign(null, Buffer.from(text), keys.privateKey));
const signNote = async (name: string, text: string) =>
  `${text}\n${await formatSignatureLine(name, publicKey, signed(text))}`;

describe('Ed25519 without Web Crypto Ed25519', () => {
  let importKey: jest.SpyInstance;
  let webCryptoVerify: jest.SpyInstance;

  beforeEach(() => {
    // Prepare: Web Crypto as in Chrome 136, Firefox 128 or Safari 16
    importKey = jest
      .spyOn(globalThis.crypto.subtle, 'importKey')
      .mockRejectedValue(new DOMException('Unrecognized algorithm name', 'NotSupportedError'));
    webCryptoVerify = jest.spyOn(globalThis.crypto.subtle, 'verify');
  });
  afterEach(() => {
    setEd25519Fallback(undefined);
    jest.restoreAllMocks();
  });

  it('verifies a signed checkpoint with @noble/ed25519, and refuses a changed one', async () => {
    // Prepare
    setEd25519Fallback(verifyEd25519WithNoble);
    const key = await formatVerifierKey('example.test/log', publicKey);
    const note = await signNote(
      'example.test/log',
      formatCheckpointBody('example.test/log', 7, new Uint8Array(32)),
    );
    // Act
    const verdict = await verifyCheckpoint(note, key);
    const changed = await verifyCheckpoint(note.replace('\n7\n', '\n8\n'), key);
    // Assess
    expect(importKey).toHaveBeenCalled();
    expect(webCryptoVerify).not.toHaveBeenCalled();
    expect(verdict).toMatchObject({ ok: true, origin: 'example.test/log', treeSize: 7 });
    expect(changed).toMatchObject({ ok: false, reason: expect.stringMatching(/does not verify/) });
  });

  it('responds as Web Crypto does for good, altered and malformed signatures', async () => {
    // Prepare
    setEd25519Fallback(verifyEd25519WithNoble);
    const message = new TextEncoder().encode('tree head\n');
    const signature = signed('tree head\n');
    const altered = signature.slice();
    altered[10] = (altered[10] ?? 0) ^ 1;
    const otherKey = publicKey.slice();
    otherKey[0] = (otherKey[0] ?? 0) ^ 1;
    // Act
    const verdicts = await Promise.all([
      verifyEd25519(publicKey, message, signature),
      verifyEd25519(publicKey, message, altered),
      verifyEd25519(publicKey, new TextEncoder().encode('tree head 2\n'), signature),
      verifyEd25519(otherKey, message, signature),
      verifyEd25519(publicKey, message, new Uint8Array(64).fill(0xff)),
    ]);
    // Assess
    expect(verdicts).toEqual([true, false, false, false, false]);
    expect(importKey).toHaveBeenCalledTimes(5);
  });

  it('says that the browser lacks Ed25519 when no fallback is set', async () => {
    // Prepare
    const key = await formatVerifierKey('example.test/log', publicKey);
    const note = await signNote(
      'example.test/log',
      formatCheckpointBody('example.test/log', 7, new Uint8Array(32)),
    );
    // Act
    const verdict = await verifyCheckpoint(note, key);
    // Assess
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringMatching(/Web Crypto has no Ed25519/) });
  });

  it('is used only when Web Crypto cannot import the key', async () => {
    // Prepare: Web Crypto with Ed25519 again
    importKey.mockRestore();
    const fallback = jest.fn(verifyEd25519WithNoble);
    setEd25519Fallback(fallback);
    // Act
    const verdict = await verifyEd25519(publicKey, Buffer.from('head'), signed('head'));
    // Assess
    expect(verdict).toBe(true);
    expect(fallback).not.toHaveBeenCalled();
    expect(webCryptoVerify).toHaveBeenCalledTimes(1);
  });
});

describe('the shared verifier', () => {
  it('imports nothing but its own files, so that the offline verifier bundles no library', () => {
    const directory = join(__dirname, '../../verifier');
    const imports = readdirSync(directory).flatMap((file) =>
      [
        ...readFileSync(join(directory, file), 'utf8').matchAll(
          /^(?:import|export)\b[^;]*?from '([^']+)'/gms,
        ),
      ].map((match) => match[1]),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((source) => !source?.startsWith('./'))).toEqual([]);
  });
});
