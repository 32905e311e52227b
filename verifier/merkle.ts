/**
 * RFC 6962 / RFC 9162 Merkle tree checks with SHA-256: leaf = SHA-256(0x00 || entry), node =
 * SHA-256(0x01 || left || right). The verification algorithms are those of RFC 9162 sections
 * 2.1.3.2 (inclusion) and 2.1.4.2 (consistency), so a proof made by any conforming log checks.
 */
import { equalBytes, sha256 } from './bytes.js';

const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);

/** The leaf hash of an entry. */
export const leafHash = (entry: Uint8Array): Promise<Uint8Array> => sha256(LEAF_PREFIX, entry);

/** The hash of an inner node. */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Promise<Uint8Array> =>
  sha256(NODE_PREFIX, left, right);

const isOdd = (value: bigint) => (value & 1n) === 1n;

/**
 * The root an inclusion proof leads to from `leaf` at `index` in a tree of `treeSize` leaves,
 * or undefined when the proof has the wrong length for that position.
 */
export async function rootFromInclusionProof(
  index: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: Uint8Array[],
): Promise<Uint8Array | undefined> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) {
    return undefined;
  }
  let fn = BigInt(index);
  let sn = BigInt(treeSize - 1);
  let hash = leaf;
  for (const sibling of proof) {
    if (sn === 0n) return undefined;
    if (isOdd(fn) || fn === sn) {
      hash = await nodeHash(sibling, hash);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      hash = await nodeHash(hash, sibling);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? hash : undefined;
}

/** Whether `proof` proves `leaf` at `index` in the tree of `treeSize` leaves whose root is `root`. */
export async function verifyInclusion(
  index: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: Uint8Array[],
  root: Uint8Array,
): Promise<boolean> {
  const computed = await rootFromInclusionProof(index, treeSize, leaf, proof);
  return computed !== undefined && equalBytes(computed, root);
}

/**
 * Whether `proof` proves that the tree of `oldSize` leaves with root `oldRoot` is a prefix of
 * the tree of `newSize` leaves with root `newRoot` (RFC 9162 section 2.1.4.2).
 */
export async function verifyConsistencyProof(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: Uint8Array[],
): Promise<boolean> {
  if (!Number.isSafeInteger(oldSize) || !Number.isSafeInteger(newSize) || oldSize < 0 || oldSize > newSize) {
    return false;
  }
  if (oldSize === newSize) return proof.length === 0 && equalBytes(oldRoot, newRoot);
  // Every tree extends the empty tree; there is nothing to prove.
  if (oldSize === 0) return proof.length === 0;
  const oldIsPowerOfTwo = (BigInt(oldSize) & BigInt(oldSize - 1)) === 0n;
  const path = oldIsPowerOfTwo ? [oldRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = BigInt(oldSize - 1);
  let sn = BigInt(newSize - 1);
  while (isOdd(fn)) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let oldHash = path[0]!;
  let newHash = path[0]!;
  for (const hash of path.slice(1)) {
    if (sn === 0n) return false;
    if (isOdd(fn) || fn === sn) {
      oldHash = await nodeHash(hash, oldHash);
      newHash = await nodeHash(hash, newHash);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      newHash = await nodeHash(newHash, hash);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && equalBytes(oldHash, oldRoot) && equalBytes(newHash, newRoot);
}
