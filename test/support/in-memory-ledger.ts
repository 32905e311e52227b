/**
 * The ledger in memory (`lambdas/repositories/ledger-store.ts`), as Tessera's drivers have an
 * in-memory fake: the same contract as the stored ledger (appends that keep the hash chain, a
 * lease that refuses every write of an owner who lost it, full tiles written once), so that the
 * sequencer's unit tests run without DynamoDB or S3. Every value is copied in and out, as a
 * store would.
 */
import { GENESIS_HASH } from '../../lambdas/domain/ledger/ledger-event';
import { type TileRef, tilePath } from '../../lambdas/domain/ledger/log-tiles';
import { TILE_WIDTH } from '../../lambdas/domain/ledger/log-tree';
import { fairOutboxReader } from '../../lambdas/repositories/fair-outbox';
import type { LedgerEvent } from '../../lambdas/repositories/ledger-event-entity';
import {
  chainIdOf,
  LeaseLostError,
  type LedgerStore,
  type LogState,
  type OutboxEntry,
} from '../../lambdas/repositories/ledger-store';
import { OUTBOX_SHARD_COUNT, outboxKeyOf, outboxPartition } from '../../lambdas/repositories/log-outbox';

interface StateItem extends LogState {
  leaseOwner?: string;
  leaseExpiresAt?: number;
}

/** An in-memory ledger, with its contents open to the test. */
export interface InMemoryLedger extends LedgerStore {
  /** Every chain's events, by chain id. */
  readonly chains: Map<string, LedgerEvent[]>;
  /** Every stored file by path (`tile/...`, `checkpoint`, `checkpoints/<size>`). */
  readonly stored: Map<string, Buffer>;
  /** Log index of each integrated event, by `<chainId>/<sequence>`. */
  readonly positions: Map<string, number>;
}

export function inMemoryLedger(): InMemoryLedger {
  const chains = new Map<string, LedgerEvent[]>();
  const outbox = new Map<string, OutboxEntry>();
  const stored = new Map<string, Buffer>();
  const positions = new Map<string, number>();
  let item: StateItem = { treeSize: 0 };
  const copy = <T>(value: T): T => structuredClone(value);
  const stateOf = ({ leaseOwner: _owner, leaseExpiresAt: _expires, ...state }: StateItem): LogState =>
    copy(state);
  const holding = (owner: string) => {
    if (item.leaseOwner !== owner) throw new LeaseLostError('The sequencer lease was taken over');
  };

  const readTile = async (ref: TileRef) => {
    const data = stored.get(tilePath(ref.level, ref.index, ref.width));
    return data && Buffer.from(data);
  };
  const readCheckpoint = async (treeSize: number) => stored.get(`checkpoints/${treeSize}`)?.toString('utf8');
  // The stored outbox's shards and key order, read by the same fair reader.
  const readOutbox = fairOutboxReader({
    shardCount: OUTBOX_SHARD_COUNT,
    async readPage(shard, after, limit) {
      const entries = [...outbox.values()]
        .filter((entry) => entry.pk === outboxPartition(shard) && (after === undefined || entry.sk > after))
        .sort((a, b) => (a.sk < b.sk ? -1 : 1));
      return { entries: copy(entries.slice(0, limit)), last: entries.length <= limit };
    },
  });
  const findLogIndex = async (chainId: string, sequence: number) => positions.get(`${chainId}/${sequence}`);

  return {
    chains,
    stored,
    positions,
    async appendEvent(chain, event) {
      const chainId = chainIdOf(chain);
      const events = chains.get(chainId) ?? [];
      const head = events.at(-1);
      if (event.sequence !== events.length + 1 || event.prevHash !== (head?.hash ?? GENESIS_HASH)) {
        throw new Error(`Event ${event.sequence} does not follow the head of ${chainId}`);
      }
      chains.set(chainId, [...events, copy(event)]);
      const key = outboxKeyOf({ ...event, chainId });
      outbox.set(`${key.pk}/${key.sk}`, { ...key, chainId, sequence: event.sequence, hash: event.hash });
    },
    journal: {
      findEvent: async (chain, sequence) => copy(chains.get(chainIdOf(chain))?.[sequence - 1]),
      listEvents: async (chain, offset, limit) =>
        copy((chains.get(chainIdOf(chain)) ?? []).slice(offset, offset + limit)),
      readChain: async (chain) => copy(chains.get(chainIdOf(chain)) ?? []),
      listChainHeads: async () =>
        [...chains]
          .map(([chainId, events]) => ({
            chainId,
            eventCount: events.length,
            lastHash: (events.at(-1) as LedgerEvent).hash,
          }))
          .sort((a, b) => (a.chainId < b.chainId ? -1 : 1)),
    },
    state: {
      read: async () => stateOf(item),
      findLogIndex,
      async chainLogIndexes(chainId) {
        const indexes = new Map<number, number>();
        for (const [key, logIndex] of positions) {
          const at = key.lastIndexOf('/');
          if (key.slice(0, at) === chainId) indexes.set(Number(key.slice(at + 1)), logIndex);
        }
        return indexes;
      },
    },
    files: { readTile, readCheckpoint },
    sequencer: {
      readOutbox,
      async removeOutbox(keys) {
        for (const key of keys) outbox.delete(`${key.pk}/${key.sk}`);
      },
      async acquireLease(owner, leaseMs) {
        const now = Date.now();
        const expires = item.leaseExpiresAt;
        if (expires !== undefined && expires >= now && item.leaseOwner !== owner) return undefined;
        item = { ...item, leaseOwner: owner, leaseExpiresAt: now + leaseMs };
        return stateOf(item);
      },
      readLease: async () => ({ owner: item.leaseOwner, expiresAt: item.leaseExpiresAt ?? 0 }),
      async releaseLease(owner) {
        if (item.leaseOwner === owner) item = { ...item, leaseExpiresAt: 0 };
      },
      async writePending(owner, batch) {
        holding(owner);
        if (item.treeSize !== batch.fromSize || item.pending) {
          throw new LeaseLostError('The sequencer lease was taken over');
        }
        item = { ...item, pending: copy(batch) };
      },
      async commit(owner, head, lastBatch, published) {
        holding(owner);
        const { pending: _pending, published: _published, ...rest } = item;
        item = {
          ...rest,
          ...copy(head),
          ...(published ? { published: copy(published) } : {}),
          ...(lastBatch.length > 0 ? { lastBatch: copy(lastBatch) } : {}),
        };
      },
      async recordWitnessing(owner, witnessSizes, published) {
        holding(owner);
        if (published && (item.published?.treeSize ?? 0) > published.treeSize) {
          throw new LeaseLostError('A larger checkpoint is already published');
        }
        item = {
          ...item,
          witnessSizes: copy(witnessSizes),
          ...(published ? { published: copy(published) } : {}),
        };
      },
      async clearLastBatch(owner) {
        holding(owner);
        const { lastBatch: _lastBatch, ...rest } = item;
        item = rest;
      },
      async writePositions(entries, fromSize) {
        entries.forEach((entry, offset) => {
          positions.set(`${entry.chainId}/${entry.sequence}`, fromSize + offset);
        });
      },
      readTile,
      async writeTiles(writes) {
        for (const write of writes) {
          const path = tilePath(write.level, write.index, write.width);
          // A full tile is written once, as the bucket's `If-None-Match: *` keeps it.
          if (write.width === TILE_WIDTH && stored.has(path)) continue;
          stored.set(path, Buffer.from(write.data));
        }
      },
      async writeCheckpoint(treeSize, note) {
        const bySize = `checkpoints/${treeSize}`;
        if (!stored.has(bySize)) stored.set(bySize, Buffer.from(note, 'utf8'));
        stored.set('checkpoint', Buffer.from(note, 'utf8'));
      },
    },
  };
}
