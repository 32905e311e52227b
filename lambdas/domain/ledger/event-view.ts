/**
 * A ledger event as the API and the CLI show it (the spec does not show one: our format). It
 * carries every field the hash covers (README, "Canonical event serialization"), so anyone can
 * recompute `hash` from the answer alone.
 */
import type { LedgerEvent } from './ledger-event.js';

export interface LedgerEventView {
  chainId: string;
  sequence: number;
  txId: string;
  action: string;
  changes: LedgerEvent['changes'];
  eventDescription: string | null;
  performedBy: string | null;
  principal: string;
  timestamp: string;
  prevHash: string;
  hash: string;
}

export function toEventView(event: LedgerEvent): LedgerEventView {
  return {
    chainId: event.chainId,
    sequence: event.sequence,
    txId: event.hash,
    action: event.action,
    changes: event.changes,
    eventDescription: event.eventDescription,
    performedBy: event.performedBy,
    principal: event.principal,
    timestamp: event.timestamp,
    prevHash: event.prevHash,
    hash: event.hash,
  };
}
