/**
 * Ledger events: one per state change of a chained entity (an object, a subcategory). Each
 * event's `hash` is SHA-256 over the canonical JSON of its body, which includes the previous
 * event's hash, so changing or removing any event breaks every later link. The transaction id
 * shown to API users (`txId`, `lastTxId`) is the event's hash.
 */
import { createHash } from 'node:crypto';
import type { LedgerEvent } from '#repositories/ledger-event-entity.js';
import { canonicalJson } from './canonical-json.js';

/** The `prevHash` of a chain's first event. */
export const GENESIS_HASH = '0'.repeat(64);

export type { FieldChanges, LedgerEvent } from '#repositories/ledger-event-entity.js';

/**
 * The hashed part of an event: everything but the hash itself (its fields are the ledger event
 * entity's, `#repositories/ledger-event-entity.ts`).
 */
export type LedgerEventBody = Omit<LedgerEvent, 'hash'>;

export const hashEventBody = (body: LedgerEventBody): string =>
  createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');

/** Seals an event body with its hash. */
export function sealEvent(body: LedgerEventBody): LedgerEvent {
  return { ...body, hash: hashEventBody(body) };
}

/** The chain position a new event takes after `head` (undefined: the chain is new). */
export function nextLink(head: { eventCount: number; lastHash: string } | undefined) {
  return head
    ? { sequence: head.eventCount + 1, prevHash: head.lastHash }
    : { sequence: 1, prevHash: GENESIS_HASH };
}
