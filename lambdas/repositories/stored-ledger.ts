/**
 * The ledger as stored in AWS (`ledger-store.ts` says what each part does): the journal, the
 * outbox, the log's state and positions in the table, the log's tiles and checkpoints in the
 * Object Lock bucket. A module imports the part it uses, so that its function bundles no other.
 */
import {
  appendEventItems,
  findChainEvent,
  listAllChainHeads,
  listChainEvents,
  readWholeChain,
} from './ledger-repository.js';
import {
  chainIdOf,
  type LedgerJournal,
  type LedgerStore,
  type LogFiles,
  type LogStateReader,
  type SequencerStore,
} from './ledger-store.js';
import { readOutbox, removeOutboxItems } from './log-outbox.js';
import {
  acquireLease,
  chainLogIndexes,
  clearLastBatch,
  commitCheckpoint,
  findLogIndex,
  readLease,
  readLogState,
  recordWitnessing,
  releaseLease,
  writePendingBatch,
  writePositions,
} from './log-state-repository.js';
import { readCheckpoint, readTile, writeCheckpoint, writeTiles } from './log-tile-store.js';
import { writeTransaction } from './transactions.js';

export const storedJournal: LedgerJournal = {
  findEvent: findChainEvent,
  listEvents: listChainEvents,
  readChain: readWholeChain,
  listChainHeads: listAllChainHeads,
};

export const storedLogState: LogStateReader = { read: readLogState, findLogIndex, chainLogIndexes };

export const storedLogFiles: LogFiles = { readTile, readCheckpoint };

export const storedSequencerStore: SequencerStore = {
  readOutbox,
  removeOutbox: removeOutboxItems,
  acquireLease,
  readLease,
  releaseLease,
  writePending: writePendingBatch,
  commit: commitCheckpoint,
  recordWitnessing,
  clearLastBatch,
  writePositions,
  readTile,
  writeTiles,
  writeCheckpoint,
};

export const storedLedger: LedgerStore = {
  // The service appends in the entity's own transaction (`appendEventItems`); this is the event alone.
  appendEvent: (chain, event) =>
    writeTransaction(
      appendEventItems(chain, event),
      () => new Error(`Event ${event.sequence} does not follow the head of ${chainIdOf(chain)}`),
    ),
  journal: storedJournal,
  state: storedLogState,
  files: storedLogFiles,
  sequencer: storedSequencerStore,
};
