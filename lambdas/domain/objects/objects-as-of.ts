/**
 * The company's objects as they stood at an instant (an as-of export): every object created by
 * then, each rebuilt from its ledger events (`replayObject`, the one source of truth), with the
 * filters and sort of spec 4.1 applied to that state. An object unchanged since the instant
 * (`updatedAt` at or before it) is its stored state, set by its last event: no event is read.
 */
import { findChainEvents, readChainUntil } from '#repositories/ledger-repository.js';
import { compareByName, type ObjectRecord, walkObjectsCreatedBy } from '#repositories/object-repository.js';
import { mapConcurrently } from '#shared/concurrent-map.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { objectChain } from './object-change.js';
import { replayObject } from './object-history.js';
import { type ListFilters, matchesFilters } from './object-service.js';

/** An object as it stood, and the event that set that state. */
export interface ObjectAsOf {
  record: ObjectRecord;
  event: { sequence: number; hash: string };
  /** With `withEvents`: that event in full, and the first event after the instant, if any. */
  setBy?: LedgerEvent;
  next?: LedgerEvent;
}

/** Objects rebuilt side by side (in each of the two pages in flight): each replay is its own Query. */
const REPLAY_CONCURRENCY = 64;
/** Rows yielded together when a name sort has sorted them in memory. */
const SORTED_PAGE_ROWS = 200;

/** One object as it stood at `instant` (the walk read only objects created by then). */
async function objectAsOf(record: ObjectRecord, instant: string, withEvents: boolean): Promise<ObjectAsOf> {
  const chain = objectChain(record);
  // Its last event, when wanted, is read with the page's others (`withLastEvents`).
  if (record.updatedAt <= instant)
    return { record, event: { sequence: record.eventCount, hash: record.lastTxId } };
  const { events, next } = await readChainUntil(chain, record.eventCount, instant);
  const last = events.at(-1);
  if (!last) throw new Error(`Object ${record.id} has no event at or before ${instant}`);
  return {
    record: replayObject(record, events),
    event: { sequence: last.sequence, hash: last.hash },
    ...(withEvents ? { setBy: last, next } : {}),
  };
}

/** The states of unchanged objects with the event that set them, read in BatchGetItem calls of 100. */
async function withLastEvents(states: ObjectAsOf[]): Promise<ObjectAsOf[]> {
  const unread = states.filter((state) => !state.setBy);
  const events = await findChainEvents(
    unread.map(({ record }) => ({ chain: objectChain(record), sequence: record.eventCount })),
  );
  for (const [position, state] of unread.entries()) {
    const setBy = events[position];
    if (!setBy) throw new Error(`Object ${state.record.id} has no event ${state.record.eventCount}`);
    state.setBy = setBy;
  }
  return states;
}

const matches = (state: ObjectAsOf, filters: ListFilters) =>
  matchesFilters(state.record, filters) &&
  (filters.externalId === undefined || state.record.externalId === filters.externalId);

/**
 * Every object of the company as it stood at `instant` (stored form, milliseconds) that matches
 * the filters, in the sort's order, a page at a time. A creation-time sort streams (creation
 * times never change); a name sort holds the matching objects in memory to sort them by the
 * names they had then.
 *
 * @example
 * for await (const page of objectsAsOf(companyId, { status: 'all', sort: 'name:asc' }, '2026-12-31T23:59:59.999Z')) { ... }
 */
export async function* objectsAsOf(
  companyId: string,
  filters: ListFilters,
  instant: string,
  withEvents = false,
): AsyncGenerator<ObjectAsOf[]> {
  const byName = filters.sort.startsWith('name:');
  const ascending = byName || filters.sort.endsWith(':asc');
  const held: ObjectAsOf[] = [];
  const pages = walkObjectsCreatedBy(companyId, instant, ascending);
  const statesOf = async (records: ObjectRecord[]) => {
    const replayed = await mapConcurrently(records, REPLAY_CONCURRENCY, (record) =>
      objectAsOf(record, instant, withEvents),
    );
    const matching = replayed.filter((state) => matches(state, filters));
    return withEvents ? withLastEvents(matching) : matching;
  };
  // Two pages in flight: the next page is read and its changed objects replayed while this
  // page's replays finish and its rows are written.
  const first = await pages.next();
  let states = first.done ? undefined : statesOf(first.value);
  while (states) {
    const next = await pages.next();
    const nextStates = next.done ? undefined : statesOf(next.value);
    // Awaited in turn below; until then a failure must not count as unhandled.
    nextStates?.catch(() => undefined);
    const kept = await states;
    if (byName) held.push(...kept);
    else if (kept.length > 0) yield kept;
    states = nextStates;
  }
  if (!byName) return;
  held.sort((a, b) => compareByName(a.record, b.record));
  if (filters.sort === 'name:desc') held.reverse();
  for (let start = 0; start < held.length; start += SORTED_PAGE_ROWS) {
    yield held.slice(start, start + SORTED_PAGE_ROWS);
  }
}
