/**
 * The sequencer: integrates committed events (from the outbox) into the global log and
 * publishes a signed checkpoint. One cycle, holding the lease throughout:
 *  1. `lease`: take the lease (and read the state);
 *  2. `outbox-deleted`: delete the outbox items of the batch integrated last time, if any;
 *  3. `pending`: read the next batch from the outbox, fairly across companies
 *     (`fair-outbox.ts`), and record it as pending at the current tree size (or take up the pending batch a killed sequencer left);
 *  4. `tiles`: write the tiles and entry bundles that change;
 *  5. `positions`: record each event's log index;
 *  6. `checkpoint-files`: compute the new root, check it is consistent with the integrated
 *     head before it, sign it and (without a witness policy) store the checkpoint in the bucket;
 *  7. `commit`: record the new tree head in the state (published at once without a witness
 *     policy), the batch becoming `lastBatch`;
 *  8. `outbox-deleted`: delete the batch's outbox items and forget it;
 *  9. under a witness policy: ask the witnesses to cosign the new head and publish it once
 *     their cosignatures meet the quorum (`witnessed-publication.ts`). A cycle that finds
 *     nothing new but its head not yet published asks again.
 * Every write is the same when redone, so a sequencer killed after any step is followed by one
 * that finishes the same batch: no event is lost, none integrated twice. Each step's cost
 * follows the batch (and log2 of the log size for the right-edge tiles), not the log size.
 */
import { randomUUID } from 'node:crypto';
import type { LogState, SequencerStore } from '#repositories/ledger-store.js';
import { storedSequencerStore } from '#repositories/stored-ledger.js';
import { verifyConsistency } from '../../../verifier/index.js';
import { type LogSigner, signCheckpoint } from './log-signer.js';
import { hashesFromTiles, tilePath, tilesForAppend } from './log-tiles.js';
import { consistencyProof, treeRoot } from './log-tree.js';
import type { Witnessing } from './witness-config.js';
import { witnessAndPublish } from './witnessed-publication.js';

/** The steps of a cycle, in order: the points a crash test stops the sequencer after. */
export const SEQUENCER_STEPS = [
  'lease',
  'pending',
  'tiles',
  'positions',
  'checkpoint-files',
  'commit',
  'outbox-deleted',
] as const;
export type SequencerStep = (typeof SEQUENCER_STEPS)[number];

export interface SequencerOptions {
  signer: LogSigner;
  /** Where the outbox, the log's state and its files are; by default the stored ledger's. */
  store?: SequencerStore;
  /** Who holds the lease; by default this process (a container keeps its lease from run to run). */
  owner?: string;
  /** How long a lease lasts unless renewed; a killed sequencer's lease is taken over after it. */
  leaseMs?: number;
  /** Most events per checkpoint (the pending batch is kept in one DynamoDB item). */
  batchSize?: number;
  /** Called after each step: tests crash the sequencer here. */
  afterStep?: (step: SequencerStep) => void | Promise<void>;
  /** The witness policy that governs publication; without it each checkpoint is published as signed. */
  witnessing?: Witnessing;
}

export interface CycleResult {
  /** False when another sequencer holds the lease. */
  leased: boolean;
  integrated: number;
  treeSize: number;
  /**
   * True when this cycle read the outbox and took everything it held: an event committed
   * before the cycle took the lease is in the log.
   */
  caughtUp: boolean;
  /**
   * True when the integrated head is not published yet: its cosignatures do not meet the
   * witness policy's quorum (a witness is down or refused). A later cycle must ask again.
   */
  awaitingWitnesses?: boolean;
}

export const DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_LEASE_MS = 30_000;
const PROCESS_OWNER = `sequencer-${randomUUID()}`;

/** Thrown when the tiles do not give a tree consistent with the published checkpoint: nothing is published. */
export class InconsistentLogError extends Error {}
/** Runs one cycle; see the module comment for its steps. */
export async function runSequencerCycle(options: SequencerOptions): Promise<CycleResult> {
  const owner = options.owner ?? PROCESS_OWNER;
  const store = options.store ?? storedSequencerStore;
  const step = async (name: SequencerStep) => options.afterStep?.(name);
  const state = await store.acquireLease(owner, options.leaseMs ?? DEFAULT_LEASE_MS);
  if (!state) return { leased: false, integrated: 0, treeSize: 0, caughtUp: false };
  await step('lease');
  if (state.lastBatch) {
    await store.removeOutbox(state.lastBatch);
    await store.clearLastBatch(owner);
    await step('outbox-deleted');
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // A pending batch taken up is not a look at the outbox: what waits there is for the next cycle.
  let caughtUp = false;
  let batch = state.pending;
  if (!batch) {
    const { entries, complete } = await store.readOutbox(batchSize);
    // Nothing new, and a checkpoint signed: only its publication may be left to do.
    if (entries.length === 0 && state.checkpoint) {
      const published = await publishUnpublished(options, store, owner, state);
      return {
        leased: true,
        integrated: 0,
        treeSize: state.treeSize,
        caughtUp: true,
        ...(published ? {} : { awaitingWitnesses: true }),
      };
    }
    caughtUp = complete;
    batch = { fromSize: state.treeSize, entries };
    await store.writePending(owner, batch);
    await step('pending');
  }
  const { fromSize, entries } = batch;
  const newSize = fromSize + entries.length;
  const writes = await tilesForAppend(
    fromSize,
    entries.map((entry) => Buffer.from(entry.hash, 'hex')),
    async (level, index, width) => {
      const tile = await store.readTile({ level, index, width });
      if (!tile) throw new Error(`The log tile ${tilePath(level, index, width)} is missing`);
      return tile;
    },
  );
  await store.writeTiles(writes);
  await step('tiles');
  await store.writePositions(entries, fromSize);
  await step('positions');

  const overlay = new Map(
    writes.map((write) => [tilePath(write.level, write.index, write.width), write.data]),
  );
  const hashes = hashesFromTiles(store.readTile, newSize, overlay);
  const root = await treeRoot(hashes, newSize);
  if (state.rootHash && fromSize > 0) {
    const proof = await consistencyProof(hashes, fromSize, newSize);
    const consistent = await verifyConsistency(
      fromSize,
      newSize,
      state.rootHash,
      root.toString('hex'),
      proof.map((hash) => hash.toString('hex')),
    );
    if (!consistent) {
      throw new InconsistentLogError(
        `The log at tree size ${newSize} is not consistent with the published checkpoint at ` +
          `${fromSize} (root ${state.rootHash}): a stored tile or the sequencer's state was ` +
          'changed; no checkpoint was published',
      );
    }
  }
  const { checkpoint, verifierKey } = await signCheckpoint(options.signer, newSize, root);
  // Under a policy the files are written at publication, with the cosignatures: a size signed
  // but never witnessed has none.
  if (!options.witnessing) await store.writeCheckpoint(newSize, checkpoint);
  await step('checkpoint-files');

  const keys = entries.map(({ pk, sk }) => ({ pk, sk }));
  await store.commit(
    owner,
    { treeSize: newSize, rootHash: root.toString('hex'), checkpoint, verifierKey },
    keys,
    options.witnessing ? state.published : { treeSize: newSize, checkpoint },
  );
  await step('commit');
  if (keys.length > 0) {
    await store.removeOutbox(keys);
    await store.clearLastBatch(owner);
    await step('outbox-deleted');
  }
  const result = { leased: true, integrated: entries.length, treeSize: newSize, caughtUp };
  if (!options.witnessing) return result;
  const published = await witnessAndPublish({
    store,
    owner,
    head: { treeSize: newSize, checkpoint },
    knownSizes: state.witnessSizes ?? {},
    witnessing: options.witnessing,
    overlay,
  });
  return published ? result : { ...result, awaitingWitnesses: true };
}

/**
 * Publishes the integrated head of a cycle that found nothing new, if it is not published:
 * under a policy once the witnesses cosign it; without one (a policy was removed) at once.
 * Returns whether the integrated head is published.
 */
async function publishUnpublished(
  options: SequencerOptions,
  store: SequencerStore,
  owner: string,
  state: LogState,
): Promise<boolean> {
  const checkpoint = state.checkpoint as string;
  if (state.published?.treeSize === state.treeSize) return true;
  if (!options.witnessing) {
    await store.writeCheckpoint(state.treeSize, checkpoint);
    await store.recordWitnessing(owner, state.witnessSizes ?? {}, { treeSize: state.treeSize, checkpoint });
    return true;
  }
  return witnessAndPublish({
    store,
    owner,
    head: { treeSize: state.treeSize, checkpoint },
    knownSizes: state.witnessSizes ?? {},
    witnessing: options.witnessing,
  });
}
