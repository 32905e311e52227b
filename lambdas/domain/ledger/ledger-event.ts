/**
 * Ledger events: one per state change of a chained entity (an object, a subcategory). Each
 * event's `hash` is SHA-256 over the canonical JSON of its body, which includes the previous
 * event's hash, so changing or removing any event breaks every later link. The transaction id
 * shown to API users (`txId`, `lastTxId`) is the event's hash.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The `prevHash` of a chain's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** A field's value before and after the change. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** The hashed part of an event: everything but the hash itself. */
export interface LedgerEventBody {
  /** Which chain: `object:<companyId>:<objectId>` or `subcategory:<companyId>:<subcategoryId>`. */
  chainId: string;
  /** 1 for the first event of the chain, then +1. */
  sequence: number;
  /** `create`, `update`, `transfer`, `repair`, `report_stolen`, `file_upload`, ... */
  action: string;
  changes: FieldChanges;
  eventDescription: string | null;
  performedBy: string | null;
  /** The authenticated caller that caused it (`apiKey:<keyId>`, later `wallet:<fullUsername>`). */
  principal: string;
  timestamp: string;
  prevHash: string;
}

export interface LedgerEvent extends LedgerEventBody {
  hash: string;
}

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
