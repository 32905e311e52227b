/**
 * RFC 6962 (Certificate Transparency) Merkle tree hashing with SHA-256: a leaf is
 * SHA-256(0x00 || data), an inner node SHA-256(0x01 || left || right), and a list of n > 1
 * leaves splits at the largest power of two smaller than n. The domain-separation bytes make
 * a leaf impossible to pass off as an inner node.
 */
import { createHash } from 'node:crypto';

const sha256 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

export const leafHash = (data: string): Buffer => sha256(Buffer.from([0]), Buffer.from(data, 'utf8'));
const nodeHash = (left: Buffer, right: Buffer): Buffer => sha256(Buffer.from([1]), left, right);

function largestPowerOfTwoBelow(count: number): number {
  let split = 1;
  while (split * 2 < count) split *= 2;
  return split;
}

function rootOfHashes(hashes: Buffer[]): Buffer {
  if (hashes.length === 1) return hashes[0] as Buffer;
  const split = largestPowerOfTwoBelow(hashes.length);
  return nodeHash(rootOfHashes(hashes.slice(0, split)), rootOfHashes(hashes.slice(split)));
}

/**
 * The Merkle tree hash of the leaves, hex. The empty tree's root is SHA-256 of nothing.
 *
 * @example
 * merkleRoot(['a', 'b']) === nodeHash(leafHash('a'), leafHash('b')).toString('hex')
 */
export function merkleRoot(leaves: string[]): string {
  if (leaves.length === 0) return sha256().toString('hex');
  return rootOfHashes(leaves.map(leafHash)).toString('hex');
}
