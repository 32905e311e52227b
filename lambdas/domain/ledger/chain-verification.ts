/**
 * Recomputes a chain: every event's hash from its stored fields, every link to the previous
 * event, the dense sequence numbers, and that the entity's own record (event count, first and
 * last transaction ids) agrees with the chain. Reports each problem with the event it is at.
 */
import { GENESIS_HASH, hashEventBody, type LedgerEvent } from './ledger-event.js';

export interface ChainProblem {
  /** The event the problem is at; null for a problem of the chain as a whole. */
  sequence: number | null;
  reason: string;
}

export interface ChainVerification {
  valid: boolean;
  eventCount: number;
  lastTxId: string | null;
  checkedEvents: number;
  problems: ChainProblem[];
}

/** What the entity's record says about its chain. */
export interface ChainExpectation {
  eventCount: number;
  firstTxId?: string;
  lastTxId: string;
}

export function verifyChain(events: LedgerEvent[], expected: ChainExpectation): ChainVerification {
  const problems: ChainProblem[] = [];
  let previousHash = GENESIS_HASH;
  events.forEach((event, index) => {
    const { hash, ...body } = event;
    if (event.sequence !== index + 1) {
      problems.push({
        sequence: event.sequence,
        reason: `expected sequence ${index + 1}: an event is missing or out of place`,
      });
    }
    if (event.prevHash !== previousHash) {
      problems.push({
        sequence: event.sequence,
        reason: "prevHash does not match the previous event's hash",
      });
    }
    if (hashEventBody(body) !== hash) {
      problems.push({
        sequence: event.sequence,
        reason: 'hash does not match the event content: the event was changed after it was written',
      });
    }
    previousHash = hash;
  });
  const last = events.at(-1);
  if (events.length !== expected.eventCount) {
    problems.push({
      sequence: null,
      reason: `the record says ${expected.eventCount} events, the ledger holds ${events.length}`,
    });
  }
  if (last && last.hash !== expected.lastTxId) {
    problems.push({
      sequence: last.sequence,
      reason: "the record's lastTxId is not the hash of the last event",
    });
  }
  if (expected.firstTxId !== undefined && events[0] && events[0].hash !== expected.firstTxId) {
    problems.push({ sequence: 1, reason: "the record's txId is not the hash of the first event" });
  }
  return {
    valid: problems.length === 0,
    eventCount: events.length,
    lastTxId: last?.hash ?? null,
    checkedEvents: events.length,
    problems,
  };
}
