/**
 * An object as it stood at an earlier moment, rebuilt from its ledger events (the one source of
 * truth): each event's `changes` set the tracked fields, in sequence order.
 */
import type { ObjectRecord } from '#repositories/object-entity.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { TRACKED_FIELDS } from './object-change.js';

/**
 * Replays `events` (the object's chain from its first event, oldest first) onto `current`, the
 * object as stored now: each tracked field takes the last value an event set (null if none), and the chain's
 * fields (`createdAt`, `updatedAt`, `txId`, `lastTxId`, `eventCount`) come from the events.
 * Fields no event records (`id`, `companyId`) are kept from `current`.
 *
 * @example
 * replayObject(current, events.slice(0, 2)); // the object after its second event
 */
export function replayObject(current: ObjectRecord, events: readonly LedgerEvent[]): ObjectRecord {
  const first = events[0];
  const last = events.at(-1);
  if (!first || !last) throw new Error('replayObject needs at least the first event');
  // A create event records only the fields it set (not null): every tracked field starts at null.
  const state: Record<string, unknown> = { ...current };
  for (const field of TRACKED_FIELDS) state[field] = null;
  for (const event of events) {
    for (const field of TRACKED_FIELDS) {
      const change = event.changes[field];
      if (change) state[field] = change.to;
    }
  }
  return {
    ...(state as unknown as ObjectRecord),
    createdAt: first.timestamp,
    updatedAt: last.timestamp,
    txId: first.hash,
    lastTxId: last.hash,
    eventCount: last.sequence,
  };
}
