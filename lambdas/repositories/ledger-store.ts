/**
 * The ledger behind one small interface, so that another journal backend could be added, as
 * Tessera keeps its storage drivers behind `objStore` and `sequencer`: what the sequencer, the
 * log's read operations and the ledger tools need of storage, and nothing of DynamoDB or S3. The
 * stored implementation is `stored-ledger.ts` (events, outbox, state and positions in the table;
 * tiles and checkpoints in the bucket); the sequencer's unit tests run on an in-memory one
 * (`test/support/in-memory-ledger.ts`).
 *
 * One thing stays outside: an event is appended in the same DynamoDB transaction as the write of
 * its entity (`appendEventItems` in `ledger-repository.ts`), which a backend of another kind
 * could not join; {@link LedgerStore.appendEvent} appends an event on its own.
 */
import type { TileRef, TileWrite } from '#domain/ledger/log-tiles.js';
import type { LedgerEvent } from './ledger-event-entity.js';

type ChainKind = 'object' | 'subcategory';

/** A chain: the events of one entity of one tenant. */
export interface ChainRef {
  kind: ChainKind;
  tenantId: string;
  entityId: string;
}

export interface ChainHead {
  chainId: string;
  eventCount: number;
  lastHash: string;
}

export const chainIdOf = (chain: ChainRef): string => `${chain.kind}:${chain.tenantId}:${chain.entityId}`;

export function chainRefOf(chainId: string): ChainRef {
  const [kind, tenantId, entityId] = chainId.split(':');
  return { kind: kind as ChainKind, tenantId: tenantId as string, entityId: entityId as string };
}

/** Where an outbox entry is kept, to delete it once integrated. */
export interface OutboxKey {
  pk: string;
  sk: string;
}

/** An event waiting for the log. */
export interface OutboxEntry extends OutboxKey {
  chainId: string;
  sequence: number;
  /** The event hash, hex: the log entry. */
  hash: string;
}

/** A batch chosen from the outbox. */
export interface OutboxBatch {
  entries: OutboxEntry[];
  /** True when `entries` are everything the outbox held when read. */
  complete: boolean;
}

/** The batch being integrated at `fromSize`, recorded before any tile is written. */
export interface PendingBatch {
  fromSize: number;
  entries: OutboxEntry[];
}

/** A signed tree head (the integrated head; published too when no witness policy governs). */
export interface LogHead {
  treeSize: number;
  /** Hex. */
  rootHash: string;
  checkpoint: string;
  verifierKey: string;
}

/** A checkpoint served to readers: the signed note, with the witnesses' cosignatures under a policy. */
export interface PublishedCheckpoint {
  treeSize: number;
  checkpoint: string;
}

export interface LogState {
  /** The integrated head: the size, root and signed checkpoint the sequencer extends. */
  treeSize: number;
  /** Hex; absent before the first checkpoint. */
  rootHash?: string;
  checkpoint?: string;
  verifierKey?: string;
  /**
   * The published head: what `GET /v2/ledger/checkpoint` serves and proofs are against. The
   * integrated head itself without a witness policy; under one, the last integrated head whose
   * cosignatures met the quorum (absent until one did).
   */
  published?: PublishedCheckpoint;
  /** The size each witness (by its policy name) cosigned last, to send as its `old` size. */
  witnessSizes?: Record<string, number>;
  pending?: PendingBatch;
  /** Outbox keys of the last integrated batch, still to delete. */
  lastBatch?: OutboxKey[];
}

/** Who holds the lease and until when (ms since the epoch; 0 once released, absent before the first). */
export interface Lease {
  owner?: string;
  expiresAt: number;
}

/** Thrown when the lease was lost to another sequencer: this one must stop writing. */
export class LeaseLostError extends Error {}

/** The chains of events as read: append-only, each event linked to the one before by its hash. */
export interface LedgerJournal {
  findEvent(chain: ChainRef, sequence: number): Promise<LedgerEvent | undefined>;
  /** A window of a chain's events, oldest first. */
  listEvents(chain: ChainRef, offset: number, limit: number): Promise<LedgerEvent[]>;
  /** Every event of a chain, oldest first, as stored (for verification). */
  readChain(chain: ChainRef): Promise<LedgerEvent[]>;
  /** Every chain head, sorted by chain id. */
  listChainHeads(): Promise<ChainHead[]>;
}

/** The log's state as the API and the audits read it: the published head and the events' positions. */
export interface LogStateReader {
  read(): Promise<LogState>;
  findLogIndex(chainId: string, sequence: number): Promise<number | undefined>;
  /** The log index of every integrated event of a chain, by sequence. */
  chainLogIndexes(chainId: string): Promise<Map<number, number>>;
}

/** The log's public files as read: C2SP tiles and entry bundles, and signed checkpoints. */
export interface LogFiles {
  readTile(ref: TileRef): Promise<Buffer | undefined>;
  readCheckpoint(treeSize: number): Promise<string | undefined>;
}

/**
 * What the sequencer needs: the outbox of committed events in commit order, the lease that keeps
 * to one sequencer at a time (every write but `acquireLease` throws {@link LeaseLostError} when
 * `owner` no longer holds it), the batch being integrated, the positions, tiles and checkpoints.
 */
export interface SequencerStore {
  /** Up to `limit` waiting entries, chosen fairly across companies, in commit order (`fair-outbox.ts`). */
  readOutbox(limit: number): Promise<OutboxBatch>;
  removeOutbox(keys: OutboxKey[]): Promise<void>;
  /** Takes or renews the lease until now + `leaseMs`; undefined when another owner holds it unexpired. */
  acquireLease(owner: string, leaseMs: number): Promise<LogState | undefined>;
  readLease(): Promise<Lease>;
  /** Gives up `owner`'s lease, if it still holds it (its expiry becomes 0). */
  releaseLease(owner: string): Promise<void>;
  /** Records the batch about to be integrated (only if the log is still at `batch.fromSize` and none is pending). */
  writePending(owner: string, batch: PendingBatch): Promise<void>;
  /**
   * Records the new integrated head and the published head after it (the new head without a
   * witness policy, the one read under a policy); the batch's outbox keys stay in `lastBatch`
   * until removed.
   */
  commit(
    owner: string,
    head: LogHead,
    lastBatch: OutboxKey[],
    published: PublishedCheckpoint | undefined,
  ): Promise<void>;
  /** Records the witnesses' sizes after a round of requests, and publishes `published` if given. */
  recordWitnessing(
    owner: string,
    witnessSizes: Record<string, number>,
    published: PublishedCheckpoint | undefined,
  ): Promise<void>;
  clearLastBatch(owner: string): Promise<void>;
  /** Records the log index of each entry of a batch integrated at `fromSize` (the same values when redone). */
  writePositions(entries: OutboxEntry[], fromSize: number): Promise<void>;
  readTile(ref: TileRef): Promise<Buffer | undefined>;
  /** Stores tiles; a full tile already stored is left as it is. */
  writeTiles(writes: TileWrite[]): Promise<void>;
  /** Stores a published checkpoint: by its size and as the latest. */
  writeCheckpoint(treeSize: number, note: string): Promise<void>;
}

/**
 * The whole ledger. Its parts follow who uses them, so that a function bundles only the part it
 * reads (an API function that serves a checkpoint loads no tile writer, no lease).
 */
export interface LedgerStore {
  /**
   * Appends a sealed event to its chain and its entry to the outbox, both or neither. Refused
   * (throws) unless the event takes the next sequence and its `prevHash` is the chain's last hash.
   */
  appendEvent(chain: ChainRef, event: LedgerEvent): Promise<void>;
  journal: LedgerJournal;
  state: LogStateReader;
  files: LogFiles;
  sequencer: SequencerStore;
}
