/**
 * What the API reads from the log: the latest checkpoint and verifier key, tiles, inclusion
 * proofs of an object's events and consistency proofs between published tree sizes. Proofs are
 * computed from the tiles of the tree size asked for, so any published size can be proven.
 */

import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import { storedJournal, storedLogFiles, storedLogState } from '#repositories/stored-ledger.js';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '#shared/errors.js';
import {
  canonicalEventText,
  formatTlogProof,
  parseCheckpointBody,
  splitNote,
  utf8,
} from '../../../verifier/index.js';
import type { LedgerEvent } from './ledger-event.js';
import { hashesFromTiles, parseTilePath } from './log-tiles.js';
import { consistencyProof, inclusionProof, inclusionProofs, leafHashOf, TILE_WIDTH } from './log-tree.js';

/** Seconds a caller should wait before asking again for an event's proof. */
const PROOF_RETRY_AFTER_SECONDS = 2;

/** 409 with a `Retry-After`: the event is committed but not in a published checkpoint yet. */
export class EventNotYetLoggedError extends ConflictError {
  override readonly headers = { 'Retry-After': String(PROOF_RETRY_AFTER_SECONDS) };
  constructor(sequence: number) {
    super('EVENT_NOT_YET_LOGGED', `Event ${sequence} is not in a published checkpoint yet; retry shortly`);
  }
}

const checkpointNotFound = (treeSize?: number) =>
  new NotFoundError(
    'CHECKPOINT_NOT_FOUND',
    treeSize === undefined
      ? 'No checkpoint is published yet'
      : `No checkpoint was published at tree size ${treeSize}`,
  );

/**
 * The latest published checkpoint: under a witness policy the last one whose cosignatures met
 * the quorum (one note: the log's signature and the witnesses' cosignatures), not the head the
 * sequencer has signed since.
 */
export async function latestCheckpoint(): Promise<string> {
  const { published } = await storedLogState.read();
  if (!published) throw checkpointNotFound();
  return published.checkpoint;
}

/** The verifier key line of the log's signing key. */
export async function logVerifierKey(): Promise<string> {
  const { verifierKey } = await storedLogState.read();
  if (!verifierKey) throw checkpointNotFound();
  return verifierKey;
}

/** A tile or entry bundle by its C2SP path, and whether it is full (immutable). */
export async function logTile(path: string): Promise<{ data: Buffer; full: boolean }> {
  const ref = parseTilePath(path);
  const data = ref && (await storedLogFiles.readTile(ref));
  if (!ref || !data) throw new NotFoundError('RESOURCE_NOT_FOUND', `No log tile at ${path}`);
  return { data, full: ref.width === TILE_WIDTH };
}

/**
 * The published checkpoint and tree head at a size (the latest when undefined). Under a witness
 * policy only witnessed sizes have one: a size signed but never cosigned by the quorum answers
 * 404 CHECKPOINT_NOT_FOUND.
 */
export async function publishedTree(treeSize: number | undefined) {
  const checkpoint =
    treeSize === undefined ? await latestCheckpoint() : await storedLogFiles.readCheckpoint(treeSize);
  if (!checkpoint) throw checkpointNotFound(treeSize);
  const body = parseCheckpointBody(splitNote(checkpoint).text);
  return { checkpoint, treeSize: body.treeSize, rootHash: Buffer.from(body.rootHash) };
}

export interface EventProof {
  logIndex: number;
  leafHash: string;
  treeSize: number;
  rootHash: string;
  inclusionProof: string[];
  checkpoint: string;
}

/**
 * The inclusion proof of one event of a chain against a published checkpoint; the tlog-proof
 * text (with the event's canonical bytes as `extra`) when `format` is `tlog-proof`.
 */
export async function eventProof(
  chain: ChainRef,
  sequenceText: string,
  treeSize: number | undefined,
): Promise<EventProof & { tlogProof: string }> {
  const sequence = /^[1-9][0-9]{0,9}$/.test(sequenceText) ? Number(sequenceText) : undefined;
  const event = sequence === undefined ? undefined : await storedJournal.findEvent(chain, sequence);
  if (!event || sequence === undefined) {
    throw new NotFoundError('EVENT_NOT_FOUND', `The object has no event ${sequenceText}`);
  }
  const logIndex = await storedLogState.findLogIndex(chainIdOf(chain), sequence);
  if (logIndex === undefined) throw new EventNotYetLoggedError(sequence);
  const tree = await publishedTree(treeSize);
  if (logIndex >= tree.treeSize) {
    if (treeSize === undefined) throw new EventNotYetLoggedError(sequence);
    throw new BadRequestError(
      'TREE_SIZE_TOO_SMALL',
      `Event ${sequence} is at index ${logIndex}, outside a tree of ${treeSize}`,
    );
  }
  const proof = await inclusionProof(
    hashesFromTiles(storedLogFiles.readTile, tree.treeSize),
    logIndex,
    tree.treeSize,
  );
  return {
    logIndex,
    leafHash: leafHashOf(Buffer.from(event.hash, 'hex')).toString('hex'),
    treeSize: tree.treeSize,
    rootHash: tree.rootHash.toString('hex'),
    inclusionProof: proof.map((hash) => hash.toString('hex')),
    checkpoint: tree.checkpoint,
    tlogProof: formatTlogProof({
      extra: utf8(canonicalEventText({ ...event })),
      index: logIndex,
      inclusionProof: proof,
      checkpoint: tree.checkpoint,
    }),
  };
}

/**
 * The C2SP tlog-proof of each of a chain's `events` (in their order) against the latest
 * checkpoint, and that checkpoint. One read of the chain's log positions, one of the log
 * state, and each tile the proofs cross read once: the cost follows the tiles, not the events.
 * 409 `EVENT_NOT_YET_LOGGED` when an event is not in that checkpoint yet.
 */
export async function eventProofs(
  chain: ChainRef,
  events: readonly LedgerEvent[],
): Promise<{ checkpoint: string; proofs: string[] }> {
  const [tree, logIndexes] = await Promise.all([
    publishedTree(undefined),
    storedLogState.chainLogIndexes(chainIdOf(chain)),
  ]);
  const indexes = events.map((event) => {
    const logIndex = logIndexes.get(event.sequence);
    if (logIndex === undefined || logIndex >= tree.treeSize) throw new EventNotYetLoggedError(event.sequence);
    return logIndex;
  });
  const paths = await inclusionProofs(
    hashesFromTiles(storedLogFiles.readTile, tree.treeSize),
    indexes,
    tree.treeSize,
  );
  return {
    checkpoint: tree.checkpoint,
    proofs: events.map((event, position) =>
      formatTlogProof({
        extra: utf8(canonicalEventText({ ...event })),
        index: indexes[position] as number,
        inclusionProof: paths[position] as Buffer[],
        checkpoint: tree.checkpoint,
      }),
    ),
  };
}

/** The RFC 6962 consistency proof between two published tree sizes. */
export async function consistencyBetween(
  from: number,
  to: number,
): Promise<{ from: number; to: number; proof: string[] }> {
  if (from > to) {
    throw new ValidationError([
      { field: 'from', code: 'RANGE_INVALID', message: 'from may not be larger than to' },
    ]);
  }
  const [older, newer] = await Promise.all([publishedTree(from), publishedTree(to)]);
  const proof = await consistencyProof(
    hashesFromTiles(storedLogFiles.readTile, newer.treeSize),
    older.treeSize,
    newer.treeSize,
  );
  return { from, to, proof: proof.map((hash) => hash.toString('hex')) };
}
