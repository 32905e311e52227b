/**
 * Inclusion proofs for an as-of export with `proofs=true` (docs/ledger.md, "An inventory that
 * verifies offline"): every proof of one export is against one published checkpoint (the
 * latest when the export starts), and its tiles are read through one cached reader, so each
 * tile is read once per export whatever the number of rows.
 */
import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import { storedLogFiles, storedLogState } from '#repositories/stored-ledger.js';
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
   * The C2SP tlog-proof text of an event less its checkpoint (it ends with the empty line; the
   * header's checkpoint completes it). 409 `EVENT_NOT_YET_LOGGED` when the checkpoint does not
   * hold the event yet.
   */
  proofOf(chain: ChainRef, event: LedgerEvent): Promise<string>;
}

/**
 * A prover against the latest published checkpoint, with one tile cache for all its proofs.
 *
 * @example
 * const prover = await inventoryProver('2026-12-31T23:59:59.999Z');
 * const text = await prover.proofOf(chain, event); // "c2sp.org/tlog-proof@v1\nindex 41\n...\n\n"
 */
export async function inventoryProver(asOf: string): Promise<InventoryProver> {
  const [tree, verifierKey] = await Promise.all([publishedTree(undefined), logVerifierKey()]);
  const hashes = hashesFromTiles(storedLogFiles.readTile, tree.treeSize);
  return {
    header: {
      format: INVENTORY_FORMAT,
      asOf,
      treeSize: tree.treeSize,
      checkpoint: tree.checkpoint,
      verifierKey,
    },
    async proofOf(chain, event) {
      const logIndex = await storedLogState.findLogIndex(chainIdOf(chain), event.sequence);
      if (logIndex === undefined || logIndex >= tree.treeSize)
        throw new EventNotYetLoggedError(event.sequence);
      const proof = await inclusionProof(hashes, logIndex, tree.treeSize);
      return formatTlogProof({ index: logIndex, inclusionProof: proof, checkpoint: '' });
    },
  };
}
