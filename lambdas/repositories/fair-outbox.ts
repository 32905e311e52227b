/**
 * Which waiting events the sequencer takes next, fairly across companies. The outbox keeps each
 * shard's items by company first (`{tenantId}#{timestamp}#…`), so one company's backlog is one
 * key range that a read can step over. A batch is chosen in three steps:
 * 1. each shard is read in key order, taking at most a quarter of the batch from any one
 *    company and stepping past the rest of its range, until the shard is read through or holds
 *    a batch's worth; a shard read through only in part starts next time after the last
 *    company it reached (round robin), so no company waits behind others' backlogs for long;
 * 2. while the batch has room, more is read of the companies cut at their share, so that a
 *    company alone fills the batch;
 * 3. the companies share the batch by water-filling: each gets all it has up to a common level,
 *    the level as high as the batch allows, so one event of another company always finds room.
 * Within a company the taken events are a prefix of each shard's range, so each chain's events
 * stay in order with no gap; the batch as a whole is in commit order (timestamp first).
 * With fairness a short batch no longer means an empty outbox: `complete` says that.
 */
import type { OutboxBatch, OutboxEntry } from './ledger-store.js';

/** One read of a shard: items in key order after `after` (exclusive), at most `limit`. */
export interface OutboxPage {
  entries: OutboxEntry[];
  /** True when the shard holds nothing after the last entry. */
  last: boolean;
}

/** How a store reads its outbox: shards, each in key order. */
export interface OutboxPages {
  shardCount: number;
  readPage(shard: number, after: string | undefined, limit: number): Promise<OutboxPage>;
}

/** One company's share of a batch when read from a shard: others are read before it gets more. */
const SHARE_OF_BATCH = 1 / 4;

/** The company (tenant) part of an outbox sort key: everything before its first `#`. */
const outboxTenantOf = (sk: string): string => sk.slice(0, sk.indexOf('#'));

/** A key after every item of a company in a shard. */
const afterTenant = (tenant: string) => `${tenant}#\uffff`;

/** Commit order: the key past its company (timestamp, chain, sequence), then the shard. */
const commitOrder = (a: OutboxEntry, b: OutboxEntry) => {
  const left = a.sk.slice(a.sk.indexOf('#') + 1);
  const right = b.sk.slice(b.sk.indexOf('#') + 1);
  if (left !== right) return left < right ? -1 : 1;
  return a.pk < b.pk ? -1 : a.pk > b.pk ? 1 : 0;
};

interface ShardRead {
  /** Entries read, by company, each a prefix of that company's range in the shard. */
  byTenant: Map<string, OutboxEntry[]>;
  /** Companies whose range was read only up to their share. */
  cut: Set<string>;
  /** True when the read stopped with a batch's worth before the shard's end. */
  stopped: boolean;
  /** The company to start after next time, when the read stopped. */
  resumeAfter?: string;
}

/**
 * Reads one shard from just after `startAfter`'s range round to it again: at most `share` per
 * company, stopping once `limit` are taken.
 */
async function readShard(
  pages: OutboxPages,
  shard: number,
  startAfter: string | undefined,
  share: number,
  limit: number,
): Promise<ShardRead> {
  const byTenant = new Map<string, OutboxEntry[]>();
  const cut = new Set<string>();
  let taken = 0;
  // The first leg runs from after the start company to the shard's end; the second wraps
  // round from the shard's start up to the start company, inclusive.
  const legs: Array<{ after?: string; until?: string }> =
    startAfter === undefined
      ? [{}]
      : [{ after: afterTenant(startAfter) }, { until: afterTenant(startAfter) }];
  for (const leg of legs) {
    let after = leg.after;
    for (;;) {
      const page = await pages.readPage(shard, after, share);
      let reachedEnd = page.last || page.entries.length === 0;
      for (const entry of page.entries) {
        if (leg.until !== undefined && entry.sk > leg.until) {
          reachedEnd = true;
          break;
        }
        const tenant = outboxTenantOf(entry.sk);
        const entries = byTenant.get(tenant) ?? [];
        byTenant.set(tenant, entries);
        if (entries.length < share) {
          entries.push(entry);
          taken++;
          after = entry.sk;
        } else {
          // Its share is taken: the rest of its range waits, unless the batch has room left.
          cut.add(tenant);
          after = afterTenant(tenant);
          break;
        }
      }
      if (reachedEnd) break;
      if (taken >= limit) {
        return { byTenant, cut, stopped: true, resumeAfter: outboxTenantOf(after ?? '#') };
      }
    }
  }
  return { byTenant, cut, stopped: false };
}

/**
 * Reads more of a company cut at its share, after its last entry read: at most `room`. Says
 * whether its range in the shard is now read to the end.
 */
async function readMore(
  pages: OutboxPages,
  shard: number,
  tenant: string,
  entries: OutboxEntry[],
  room: number,
): Promise<boolean> {
  const page = await pages.readPage(shard, entries.at(-1)?.sk, room);
  const more = page.entries.filter((entry) => outboxTenantOf(entry.sk) === tenant);
  entries.push(...more);
  return page.last || more.length < page.entries.length || page.entries.length < room;
}

/**
 * How many of each company's entries to take so that at most `limit` are taken: everything up
 * to a common level, the level as high as fits, what is left over going one each to the
 * companies above it (in the order given).
 */
export function waterFill(counts: readonly number[], limit: number): number[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= limit) return [...counts];
  const ascending = [...counts].sort((a, b) => a - b);
  let level = 0;
  let left = limit;
  for (let index = 0; index < ascending.length; index++) {
    const above = ascending.length - index;
    const step = (ascending[index] as number) - level;
    if (step * above > left) {
      level += Math.floor(left / above);
      break;
    }
    left -= step * above;
    level += step;
  }
  const taken = counts.map((count) => Math.min(count, level));
  let spare = limit - taken.reduce((sum, count) => sum + count, 0);
  for (let index = 0; index < counts.length && spare > 0; index++) {
    if ((counts[index] as number) > (taken[index] as number)) {
      taken[index] = (taken[index] as number) + 1;
      spare--;
    }
  }
  return taken;
}

/**
 * A reader of `pages` that chooses batches fairly (see the module comment). It remembers where
 * each shard's round robin stands, so a store keeps one reader.
 */
export function fairOutboxReader(pages: OutboxPages): (limit: number) => Promise<OutboxBatch> {
  const resumeAfter = new Map<number, string>();
  return async (limit) => {
    const share = Math.max(1, Math.ceil(limit * SHARE_OF_BATCH));
    const shards = await Promise.all(
      Array.from({ length: pages.shardCount }, async (_, shard) => {
        const read = await readShard(pages, shard, resumeAfter.get(shard), share, limit);
        if (read.resumeAfter === undefined) resumeAfter.delete(shard);
        else resumeAfter.set(shard, read.resumeAfter);
        return read;
      }),
    );
    // A batch with room left takes more of the companies cut at their share.
    let room = limit - shards.reduce((sum, read) => sum + [...read.byTenant.values()].flat().length, 0);
    let readThrough = shards.every((read) => !read.stopped);
    for (const [shard, read] of shards.entries()) {
      for (const tenant of read.cut) {
        const entries = read.byTenant.get(tenant) as OutboxEntry[];
        const before = entries.length;
        if (room <= 0 || !(await readMore(pages, shard, tenant, entries, room))) readThrough = false;
        room -= entries.length - before;
      }
    }
    const byTenant = new Map<string, OutboxEntry[]>();
    for (const read of shards) {
      for (const [tenant, entries] of read.byTenant) {
        byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), ...entries]);
      }
    }
    const tenants = [...byTenant.values()].map((entries) => entries.sort(commitOrder));
    const counts = waterFill(
      tenants.map((entries) => entries.length),
      limit,
    );
    const entries = tenants.flatMap((tenantEntries, index) => tenantEntries.slice(0, counts[index]));
    const allTaken = counts.every((count, index) => count === (tenants[index] as OutboxEntry[]).length);
    return { entries: entries.sort(commitOrder), complete: readThrough && allTaken };
  };
}
