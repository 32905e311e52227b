/**
 * The list shape categories and wallets share: items sorted by creation time or by name, in a
 * partition per status and one for all statuses (gsi1/gsi2 by status, gsi3/gsi4 for all, by
 * creation time and by name, as their entities' keys declare), with exact totals from the tenant's per-status counters when no
 * text filter is given (a filter reads the whole partition; `docs/api-decisions.md`, "What list
 * filters cost as a company grows").
 */
import type { ItemKey } from '#shared/page-cursor.js';
import { readIndexWindow } from './index-query.js';
import { readCounters, sumCounters } from './tenant-counters.js';

export interface StatusSortedListRequest {
  tenantId: string;
  /** The partition of the one status asked for, or of all statuses. */
  partitionKeyValue: string;
  allStatuses: boolean;
  sortByName: boolean;
  ascending: boolean;
  offset: number;
  limit: number;
  /** A cursor's position: read on after this item. */
  startAfter?: ItemKey;
  /** Case-insensitive substring filter on a stored, lower-cased attribute. */
  contains?: { attribute: string; needle: string };
  /** Counters whose sum is the total when there is no filter. */
  counterNames: string[];
}

export async function readStatusSortedList(
  request: StatusSortedListRequest,
): Promise<{ items: Record<string, unknown>[]; total: number; lastKey?: ItemKey }> {
  const indexName = request.allStatuses
    ? request.sortByName
      ? 'gsi4'
      : 'gsi3'
    : request.sortByName
      ? 'gsi2'
      : 'gsi1';
  const filter = request.contains && {
    expression: 'contains(#text, :needle)',
    names: { '#text': request.contains.attribute },
    values: { ':needle': request.contains.needle },
  };
  const [window, counters] = await Promise.all([
    readIndexWindow({
      indexName,
      partitionKeyValue: request.partitionKeyValue,
      ascending: request.ascending,
      offset: request.offset,
      limit: request.limit,
      startAfter: request.startAfter,
      filter,
    }),
    filter ? undefined : readCounters(request.tenantId),
  ]);
  return {
    items: window.items,
    lastKey: window.lastKey,
    total: window.matchedTotal ?? sumCounters(counters ?? {}, request.counterNames),
  };
}
