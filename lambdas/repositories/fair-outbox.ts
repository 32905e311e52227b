/**
 * Which waiting events the sequencer takes next, fairly across companies. The outbox keeps each
 * shard's items by company first (`{tenantId}#{timestamp}#…`), so one company's backlog is one
 * key range that a read can step over. A cycle takes at most {@link COMPANY_EVENTS_PER_CYCLE}
 * events of one company, whether or not another company waits: a cycle's time grows with its
 * events, and an event of another company committed meanwhile waits for the cycle under way and
 * then its own, so no cycle may be made long by one company's backlog. A batch is chosen in two
 * steps:
 * 1. each shard is read in key order, taking at most that many from any one company and
 *    stepping past the rest of its range, until the shard is read through or holds a batch's
 *    worth; a shard read only in part starts next time after the last company it reached
 *    (round robin), so no company waits behind others' backlogs for long;
 * 2. the companies share the batch by water-filling: each gets all it has up to a common level,
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

/**
 * Most events of one company per cycle, alone or not: the figures that chose it are in
 * docs/ledger-sequencer.md#fair-across-companies.
 */
export const COMPANY_EVENTS_PER_CYCLE = 100;

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
          // Its share is taken: the rest of its range waits for another cycle, and the read
          // goes on past it (the page's later entries, of other companies, are read again).
          cut.add(tenant);
          after = afterTenant(tenant);
          reachedEnd = false;
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
    const share = Math.min(limit, COMPANY_EVENTS_PER_CYCLE);
    const shards = await Promise.all(
      Array.from({ length: pages.shardCount }, async (_, shard) => {
        const read = await readShard(pages, shard, resumeAfter.get(shard), share, limit);
        if (read.resumeAfter === undefined) resumeAfter.delete(shard);
        else resumeAfter.set(shard, read.resumeAfter);
        return read;
      }),
    );
    const byTenant = new Map<string, OutboxEntry[]>();
    for (const read of shards) {
      for (const [tenant, entries] of read.byTenant) {
        byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), ...entries]);
      }
    }
    const tenants = [...byTenant.values()].map((entries) => entries.sort(commitOrder));
    const counts = waterFill(
      tenants.map((entries) => Math.min(entries.length, share)),
      limit,
    );
    const entries = tenants.flatMap((tenantEntries, index) => tenantEntries.slice(0, counts[index]));
    const allTaken = counts.every((count, index) => count === (tenants[index] as OutboxEntry[]).length);
    const readThrough = shards.every((read) => !read.stopped && read.cut.size === 0);
    return { entries: entries.sort(commitOrder), complete: readThrough && allTaken };
  };
}
