/**
 * The shared verifier against an independent reference: RFC 6962's recursive definitions of
 * the tree hash, PATH and PROOF written out here over a list of leaves, and Node's own Ed25519.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  formatCheckpointBody,
  formatSignatureLine,
  formatTlogProof,
  formatVerifierKey,
  fromBase64,
  parseTlogProof,
  toBase64,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
} from '../../verifier/index.js';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (entry: Buffer) => sha(Buffer.from([0]), entry);
const node = (left: Buffer, right: Buffer) => sha(Buffer.from([1]), left, right);
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const mth = (d: Buffer[]): Buffer =>
  d.length === 0
    ? sha()
    : d.length === 1
      ? leaf(d[0]!)
      : node(mth(d.slice(0, split(d.length))), mth(d.slice(split(d.length))));
const path = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length <= 1) return [];
  const k = split(d.length);
  return m < k
    ? [...path(m, d.slice(0, k)), mth(d.slice(k))]
    : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
};
const subproof = (m: number, d: Buffer[], b: boolean): Buffer[] => {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = split(d.length);
  return m <= k
    ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
};
const entries = Array.from({ length: 40 }, (_, i) => sha(Buffer.from(`event ${i}`)));

describe('Merkle proofs', () => {
  it('accepts every RFC 6962 inclusion proof and refuses a wrong index or root', async () => {
    for (let size = 1; size <= 40; size += 3) {
      const root = mth(entries.slice(0, size));
      for (let index = 0; index < size; index++) {
        const proof = path(index, entries.slice(0, size));
        expect(await verifyInclusion(index, size, leaf(entries[index]!), proof, root)).toBe(true);
        if (size > 1) {
          expect(await verifyInclusion((index + 1) % size, size, leaf(entries[index]!), proof, root)).toBe(
            false,
          );
        }
        expect(await verifyInclusion(index, size, leaf(entries[index]!), proof, sha(root))).toBe(false);
      }
    }
  });

  it('accepts every RFC 6962 consistency proof and refuses a root from another tree', async () => {
    for (let newSize = 1; newSize <= 40; newSize += 3) {
      for (let oldSize = 0; oldSize <= newSize; oldSize++) {
        const proof = oldSize === 0 ? [] : subproof(oldSize, entries.slice(0, newSize), true);
        const args = [
          oldSize,
          newSize,
          mth(entries.slice(0, oldSize)).toString('hex'),
          mth(entries.slice(0, newSize)).toString('hex'),
          proof.map((hash) => hash.toString('hex')),
        ] as const;
        expect(await verifyConsistency(...args)).toBe(true);
        if (oldSize > 0 && oldSize < newSize) {
          const forged = mth([...entries.slice(0, oldSize - 1), sha(Buffer.from('forged'))]).toString('hex');
          expect(await verifyConsistency(args[0], args[1], forged, args[3], args[4])).toBe(false);
        }
      }
    }
  });
});

describe('signed checkpoints', () => {
  const keys = generateKeyPairSync('ed25519');
  const publicKey = new Uint8Array(keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  const signNote = async (name: string, text: string) =>
    `${text}\n${await formatSignatureLine(name, publicKey, new Uint8Array(sign(null, Buffer.from(text), keys.privateKey)))}`;

  it('verifies a checkpoint signed by the key and reads its fields', async () => {
    const key = await formatVerifierKey('example.test/log', publicKey);
    const root = sha(Buffer.from('root'));
    const note = await signNote('example.test/log', formatCheckpointBody('example.test/log', 7, root));
    expect(await verifyCheckpoint(note, key)).toEqual({
      ok: true,
      origin: 'example.test/log',
      treeSize: 7,
      rootHash: root.toString('hex'),
      keyId: key.split('+')[1],
    });
  });

  it('refuses another key, a changed size and a changed origin', async () => {
    const key = await formatVerifierKey('example.test/log', publicKey);
    const other = generateKeyPairSync('ed25519');
    const otherKey = await formatVerifierKey(
      'example.test/log',
      new Uint8Array(other.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)),
    );
    const note = await signNote('example.test/log', formatCheckpointBody('example.test/log', 7, sha()));
    expect((await verifyCheckpoint(note, otherKey)).ok).toBe(false);
    expect(await verifyCheckpoint(note.replace('\n7\n', '\n8\n'), key)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/does not verify/),
    });
    const renamed = await signNote('example.test/log', formatCheckpointBody('elsewhere', 7, sha()));
    expect((await verifyCheckpoint(renamed, key)).ok).toBe(false);
  });

  it('reads back a tlog-proof it wrote, and base64 as RFC 4648 writes it', () => {
    const proof = {
      extra: new Uint8Array([1, 2, 3]),
      index: 5,
      inclusionProof: [sha()],
      checkpoint: 'a\n1\nb\n\n— a c\n',
    };
    expect(parseTlogProof(formatTlogProof(proof))).toEqual(proof);
    for (let length = 0; length < 10; length++) {
      const bytes = sha(Buffer.from([length])).subarray(0, length);
      expect(toBase64(bytes)).toBe(bytes.toString('base64'));
      expect(Buffer.from(fromBase64(bytes.toString('base64')))).toEqual(bytes);
    }
  });
});
