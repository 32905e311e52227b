/**
 * Inclusion proofs for an as-of export with `proofs=true` (docs/ledger.md, "An inventory that
 * verifies offline"): every proof of one export is against one published checkpoint (the
 * latest when the export starts), and its tiles are read through one cached reader, so each
 * tile is read once per export whatever the number of rows.
 */
import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import { findLogIndexes } from '#repositories/log-state-repository.js';
import { storedLogFiles } from '#repositories/stored-ledger.js';
import { formatTlogProof, INVENTORY_FORMAT } from '../../../verifier/index.js';
import type { LedgerEvent } from './ledger-event.js';
import { EventNotYetLoggedError, logVerifierKey, publishedTree } from './log-service.js';
import { hashesFromTiles } from './log-tiles.js';
import { inclusionProof } from './log-tree.js';

/** The first line of an inventory with proofs: what every row's proof is checked against. */
interface InventoryHeader {
  format: typeof INVENTORY_FORMAT;
  asOf: string;
  treeSize: number;
  /** The signed checkpoint note, once for the file. */
  checkpoint: string;
  /** The log's verifier key as the service publishes it (informational: trust is the auditor's). */
  verifierKey: string;
}

/** Proves events of the ledger against the one checkpoint of its header. */
export interface InventoryProver {
  header: InventoryHeader;
  /**
   * The C2SP tlog-proof text of each event less its checkpoint (it ends with the empty line; the
   * header's checkpoint completes it), in order; their log positions read in BatchGetItem calls
   * of 100. 409 `EVENT_NOT_YET_LOGGED` when the checkpoint does not hold one of them yet.
   */
  proofsOf(events: readonly { chain: ChainRef; event: LedgerEvent }[]): Promise<string[]>;
}

/**
 * A prover against the latest published checkpoint, with one tile cache for all its proofs.
 *
 * @example
 * const prover = await inventoryProver('2026-12-31T23:59:59.999Z');
 * const [text] = await prover.proofsOf([{ chain, event }]); // "c2sp.org/tlog-proof@v1\nindex 41\n...\n\n"
 */
export async function inventoryProver(asOf: string): Promise<InventoryProver> {
  const [tree, verifierKey] = await Promise.all([publishedTree(undefined), logVerifierKey()]);
  // Neighbouring events' proofs share most subtrees: each is hashed once per export.
  const hashes = { ...hashesFromTiles(storedLogFiles.readTile, tree.treeSize), subtrees: new Map() };
  return {
    header: {
      format: INVENTORY_FORMAT,
      asOf,
      treeSize: tree.treeSize,
      checkpoint: tree.checkpoint,
      verifierKey,
    },
    async proofsOf(events) {
      const logIndexes = await findLogIndexes(
        events.map(({ chain, event }) => ({ chainId: chainIdOf(chain), sequence: event.sequence })),
      );
      return Promise.all(
        events.map(async ({ event }, position) => {
          const logIndex = logIndexes[position];
          if (logIndex === undefined || logIndex >= tree.treeSize) {
            throw new EventNotYetLoggedError(event.sequence);
          }
          const proof = await inclusionProof(hashes, logIndex, tree.treeSize);
          return formatTlogProof({ index: logIndex, inclusionProof: proof, checkpoint: '' });
        }),
      );
    },
  };
}
