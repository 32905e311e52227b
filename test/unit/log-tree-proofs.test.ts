/**
 * `inclusionProofs` (many leaves against one tree size, sharing subtree hashes) gives each leaf
 * the proof `inclusionProof` gives it alone, and each proof reaches the tree's root.
 */
import {
  inclusionProof,
  inclusionProofs,
  leafHashOf,
  nodeHashOf,
  type StoredHashes,
  treeRoot,
} from '../../lambdas/domain/ledger/log-tree';
import { rootFromInclusionProof } from '../../verifier/index';

/** Stored hashes of an in-memory list of leaves, counting each stored hash asked for. */
function memoryHashes(entries: Buffer[]) {
  const levels: Buffer[][] = [entries.map(leafHashOf)];
  let reads = 0;
  const source: StoredHashes = {
    async hashAt(tileLevel, index) {
      reads++;
      for (let level = levels.length; level <= tileLevel * 8; level++) {
        const below = levels[level - 1] as Buffer[];
        levels.push(
          Array.from({ length: Math.floor(below.length / 2) }, (_, i) =>
            nodeHashOf(below[2 * i] as Buffer, below[2 * i + 1] as Buffer),
          ),
        );
      }
      return levels[tileLevel * 8]?.[index] as Buffer;
    },
  };
  return { source, reads: () => reads };
}

const entriesOf = (count: number) => Array.from({ length: count }, (_, i) => Buffer.alloc(32, i % 251));

describe('inclusionProofs', () => {
  it.each([1, 2, 7, 256, 300, 70_000])(
    "gives each leaf of a tree of %i the proof it has alone, reaching the tree's root",
    async (treeSize) => {
      // Prepare
      const entries = entriesOf(treeSize);
      const { source } = memoryHashes(entries);
      const indexes = [...new Set([0, Math.floor(treeSize / 3), treeSize - 2, treeSize - 1])].filter(
        (index) => index >= 0,
      );
      // Act
      const proofs = await inclusionProofs(source, indexes, treeSize);
      // Assess
      const root = await treeRoot(source, treeSize);
      for (const [position, index] of indexes.entries()) {
        expect(proofs[position]).toEqual(await inclusionProof(source, index, treeSize));
        const reached = await rootFromInclusionProof(
          index,
          treeSize,
          leafHashOf(entries[index] as Buffer),
          proofs[position] as Buffer[],
        );
        expect(Buffer.from(reached as Uint8Array)).toEqual(root);
      }
    },
  );

  it('asks the stored hashes once per shared subtree: 200 neighbouring leaves cost far less than 200 proofs', async () => {
    const entries = entriesOf(1000);
    const indexes = Array.from({ length: 200 }, (_, i) => 500 + i);
    const together = memoryHashes(entries);
    const apart = memoryHashes(entries);
    await inclusionProofs(together.source, indexes, entries.length);
    for (const index of indexes) await inclusionProof(apart.source, index, entries.length);
    expect(together.reads()).toBeLessThan(apart.reads() / 10);
  });
});
