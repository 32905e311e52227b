/**
 * Ledger digests (what QLDB's GetDigest gave): an RFC 6962 Merkle root over the head of every
 * chain at one moment, stored where it cannot be changed. A later check recomputes the root
 * from the digest's leaves and confirms that each leaf's event still has the hash the digest
 * recorded, so rewriting history, even consistently along a whole chain, is detected.
 */

import { getDigest, listDigestKeys, nextDigestSequence, putDigest } from '#repositories/digest-store.js';
import {
  type ChainHead,
  chainRefOf,
  findChainEvent,
  listAllChainHeads,
} from '#repositories/ledger-repository.js';
import { nowIso } from '#shared/clock.js';
import { merkleRoot } from './merkle-tree.js';

export const DIGEST_ALGORITHM = 'RFC6962-SHA256';

export interface LedgerDigest {
  sequence: number;
  timestamp: string;
  algorithm: typeof DIGEST_ALGORITHM;
  treeSize: number;
  rootHash: string;
  /** The chain heads, sorted by chain id; leaf i is `leafData(leaves[i])`. */
  leaves: ChainHead[];
}

/** The bytes a chain head contributes to the tree. */
export const leafData = (head: ChainHead): string => `${head.chainId}:${head.eventCount}:${head.lastHash}`;

/** Builds and stores a digest of the whole ledger as it is now. */
export async function createDigest(): Promise<LedgerDigest & { key: string }> {
  const heads = await listAllChainHeads();
  const digest: LedgerDigest = {
    sequence: await nextDigestSequence(),
    timestamp: nowIso(),
    algorithm: DIGEST_ALGORITHM,
    treeSize: heads.length,
    rootHash: merkleRoot(heads.map(leafData)),
    leaves: heads,
  };
  const key = await putDigest(digest);
  return { ...digest, key };
}

export interface DigestProblem {
  digestSequence: number;
  chainId: string | null;
  sequence: number | null;
  reason: string;
}

/**
 * Checks every stored digest: its root against its leaves, and each leaf (or only the leaves
 * of `chainIds`) against the event it names.
 */
export async function verifyDigests(
  chainIds?: ReadonlySet<string>,
): Promise<{ digestsChecked: number; problems: DigestProblem[] }> {
  const problems: DigestProblem[] = [];
  const keys = await listDigestKeys();
  for (const key of keys) {
    const digest = await getDigest(key);
    if (
      merkleRoot(digest.leaves.map(leafData)) !== digest.rootHash ||
      digest.leaves.length !== digest.treeSize
    ) {
      problems.push({
        digestSequence: digest.sequence,
        chainId: null,
        sequence: null,
        reason: 'the digest root does not match its leaves',
      });
    }
    for (const leaf of digest.leaves) {
      if (chainIds && !chainIds.has(leaf.chainId)) continue;
      const event = await findChainEvent(chainRefOf(leaf.chainId), leaf.eventCount);
      if (!event) {
        problems.push({
          digestSequence: digest.sequence,
          chainId: leaf.chainId,
          sequence: leaf.eventCount,
          reason: 'the event anchored by the digest is missing',
        });
      } else if (event.hash !== leaf.lastHash) {
        problems.push({
          digestSequence: digest.sequence,
          chainId: leaf.chainId,
          sequence: leaf.eventCount,
          reason: 'the event no longer has the hash the digest anchored',
        });
      }
    }
  }
  return { digestsChecked: keys.length, problems };
}
