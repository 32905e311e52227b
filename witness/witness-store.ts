/**
 * Where a witness keeps, per origin, the latest checkpoint it cosigned. The one write is a
 * compare-and-set: the check of the old size and the store of the new checkpoint are one
 * atomic step, as C2SP tlog-witness requires (two requests racing from the same size must not
 * both be cosigned, nor may a smaller size overwrite a larger one).
 * Drivers: `file-store.ts` (local, one file per origin) and `dynamodb-store.ts` (AWS).
 */

/** The latest cosigned checkpoint of one log. */
export interface CosignedCheckpoint {
  treeSize: number;
  /** The 32-byte root hash. */
  rootHash: Uint8Array;
  /** The whole note as monitors get it: the checkpoint, the log's verified signatures, the cosignature. */
  note: string;
}

export interface WitnessStore {
  /** The latest cosigned checkpoint of `origin`, or undefined if it never cosigned one. */
  read(origin: string): Promise<CosignedCheckpoint | undefined>;
  /**
   * Stores `next` for `origin` only if the stored checkpoint still has `expected`'s size and
   * root (or nothing is stored, when `expected` is undefined), durably before it resolves.
   * Resolves to `{ stored: true }`, or to `{ stored: false, current }` with what is stored.
   */
  compareAndSet(
    origin: string,
    expected: CosignedCheckpoint | undefined,
    next: CosignedCheckpoint,
  ): Promise<{ stored: true } | { stored: false; current: CosignedCheckpoint | undefined }>;
}

/** Whether a stored checkpoint (or its absence) is the one a request was checked against. */
export function sameCheckpoint(
  a: CosignedCheckpoint | undefined,
  b: CosignedCheckpoint | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.treeSize === b.treeSize && Buffer.from(a.rootHash).equals(Buffer.from(b.rootHash));
}
