/**
 * Hashes and proofs of the global Merkle log (RFC 6962, SHA-256), computed from stored hashes:
 * the hash of every complete subtree whose height is a multiple of 8 is kept in a tile (see
 * `log-tiles.ts`), and every other hash is recomputed from at most 128 of those. Reading a root
 * or a proof therefore touches a few tiles along one path: its cost grows with log2 of the log
 * size, never with the log size itself.
 */
import { createHash } from 'node:crypto';

/** Tile height: a tile holds 2^8 = 256 hashes of one level. */
const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

/** Where stored hashes come from: the hash of the complete subtree of height 8·`tileLevel` at `index`. */
export interface StoredHashes {
  hashAt(tileLevel: number, index: number): Promise<Buffer>;
  /**
   * Hashes of complete subtrees already computed, by `<height>/<index>`: given, many proofs of one
   * tree share them (a complete subtree's hash never changes as the log grows).
   */
  subtrees?: Map<string, Promise<Buffer>>;
}

const sha256 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const LEAF_PREFIX = Buffer.from([0]);
const NODE_PREFIX = Buffer.from([1]);

/** RFC 6962 leaf hash of an entry. */
export const leafHashOf = (entry: Buffer): Buffer => sha256(LEAF_PREFIX, entry);
/** RFC 6962 inner node hash. */
export const nodeHashOf = (left: Buffer, right: Buffer): Buffer => sha256(NODE_PREFIX, left, right);
/** The root of the empty tree: SHA-256 of nothing. */
const EMPTY_ROOT = sha256();

/** The largest power of two smaller than `count` (count > 1). */
function splitPoint(count: number): number {
  let split = 1;
  while (split * 2 < count) split *= 2;
  return split;
}

/** The root of a complete list of 2^k hashes of one level (a full or partial-power tile span). */
export function rootOfLevel(hashes: Buffer[]): Buffer {
  if (hashes.length === 1) return hashes[0] as Buffer;
  const split = splitPoint(hashes.length);
  return nodeHashOf(rootOfLevel(hashes.slice(0, split)), rootOfLevel(hashes.slice(split)));
}

/** The hash of the complete subtree of `height` at `index` (leaves index·2^height onwards). */
function subtreeHash(source: StoredHashes, height: number, index: number): Promise<Buffer> {
  const below = height % TILE_HEIGHT;
  const tileLevel = (height - below) / TILE_HEIGHT;
  if (below === 0) return source.hashAt(tileLevel, index);
  const key = `${height}/${index}`;
  const known = source.subtrees?.get(key);
  if (known) return known;
  const span = 2 ** below;
  const hash = Promise.all(
    Array.from({ length: span }, (_, offset) => source.hashAt(tileLevel, index * span + offset)),
  ).then(rootOfLevel);
  source.subtrees?.set(key, hash);
  return hash;
}

/** RFC 6962 MTH of the leaves [start, start + count). */
type RangeHash = (start: number, count: number) => Promise<Buffer>;

/**
 * The MTH of leaf ranges, where start is aligned as RFC 6962's recursion keeps it. With a
 * `cache`, each range is computed once however many proofs ask for it.
 */
function rangeHasher(source: StoredHashes, cache?: Map<string, Promise<Buffer>>): RangeHash {
  const rangeHash: RangeHash = (start, count) => {
    const key = `${start}+${count}`;
    const known = cache?.get(key);
    if (known) return known;
    const computed = (async () => {
      if ((count & (count - 1)) === 0 && count <= 2 ** 30 && start % count === 0) {
        return subtreeHash(source, Math.log2(count), start / count);
      }
      const split = splitPoint(count);
      const [left, right] = await Promise.all([
        rangeHash(start, split),
        rangeHash(start + split, count - split),
      ]);
      return nodeHashOf(left, right);
    })();
    cache?.set(key, computed);
    return computed;
  };
  return rangeHash;
}

/** The root hash of the tree of the first `treeSize` leaves. */
export async function treeRoot(source: StoredHashes, treeSize: number): Promise<Buffer> {
  return treeSize === 0 ? EMPTY_ROOT : rangeHasher(source)(0, treeSize);
}

/** RFC 6962 PATH(index, D[treeSize]): the inclusion proof of a leaf, nearest sibling first. */
export function inclusionProof(source: StoredHashes, index: number, treeSize: number): Promise<Buffer[]> {
  return pathOf(rangeHasher(source), index, treeSize);
}

/**
 * The inclusion proofs of many leaves against one tree size, in the order of `indexes`. A
 * subtree hash that several paths share (every hash near the root) is computed once, and with
 * `hashesFromTiles` each tile is read once: the reads follow the tiles the paths cross, not
 * the number of leaves.
 */
export function inclusionProofs(
  source: StoredHashes,
  indexes: readonly number[],
  treeSize: number,
): Promise<Buffer[][]> {
  const rangeHash = rangeHasher(source, new Map());
  return Promise.all(indexes.map((index) => pathOf(rangeHash, index, treeSize)));
}

async function pathOf(rangeHash: RangeHash, index: number, treeSize: number): Promise<Buffer[]> {
  let start = 0;
  let count = treeSize;
  let offset = index;
  const siblings: Promise<Buffer>[] = [];
  while (count > 1) {
    const split = splitPoint(count);
    if (offset < split) {
      siblings.push(rangeHash(start + split, count - split));
      count = split;
    } else {
      siblings.push(rangeHash(start, split));
      start += split;
      offset -= split;
      count -= split;
    }
  }
  return (await Promise.all(siblings)).reverse();
}

/** RFC 6962 PROOF(oldSize, D[newSize]): the consistency proof between two tree sizes. */
export async function consistencyProof(
  source: StoredHashes,
  oldSize: number,
  newSize: number,
): Promise<Buffer[]> {
  if (oldSize === 0 || oldSize === newSize) return [];
  const rangeHash = rangeHasher(source);
  const parts: Promise<Buffer>[] = [];
  let start = 0;
  let count = newSize;
  let old = oldSize;
  let whole = true;
  while (old !== count) {
    const split = splitPoint(count);
    if (old <= split) {
      parts.push(rangeHash(start + split, count - split));
      count = split;
    } else {
      parts.push(rangeHash(start, split));
      start += split;
      old -= split;
      count -= split;
      whole = false;
    }
  }
  if (!whole) parts.push(rangeHash(start, count));
  return (await Promise.all(parts)).reverse();
}
