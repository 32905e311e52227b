/**
 * The one way an existing object changes: read it, build the new version and its ledger event,
 * and write both (plus any items the change brings, such as a file record) in one transaction
 * conditioned on the object's event count. A lost race re-reads and re-applies the change, a
 * bounded number of times, then responds 409. Used by updates and by file uploads and deletes.
 */

import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import { findVisibleObject, type ObjectRecord, writeObjectVersion } from '#repositories/object-repository.js';
import type { ConditionedItem, TransactItem } from '#repositories/transactions.js';
import { nextTimestamp } from '#shared/clock.js';
import { NotFoundError } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import { actorOf, type Principal, performedByOf } from '#shared/principal.js';
import { TRACKED_OBJECT_FIELDS } from '../../../verifier/object-fields.js';
import { canonicalJson } from '../ledger/canonical-json.js';
import { type FieldChanges, nextLink, sealEvent } from '../ledger/ledger-event.js';

export const objectChain = (record: Pick<ObjectRecord, 'companyId' | 'id'>): ChainRef => ({
  kind: 'object',
  tenantId: record.companyId,
  entityId: record.id,
});

export const objectNotFound = (objectId: string) =>
  new NotFoundError('OBJECT_NOT_FOUND', `No object ${objectId} in this company`);

/** The fields an event's `changes` record (and a replay sets): the verifier's list. */
export const TRACKED_FIELDS = TRACKED_OBJECT_FIELDS;

/** The tracked fields that differ between two versions, as `{ from, to }`. */
export function fieldChanges(before: Partial<ObjectRecord>, after: ObjectRecord): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of TRACKED_FIELDS) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (canonicalJson(from) !== canonicalJson(to)) changes[field] = { from, to };
  }
  return changes;
}

/**
 * An item of a caller's written with the change, with the error its failed condition means
 * (an import row written already), which wins over the change's own conflicts.
 */
export type ObjectClaim = ConditionedItem;

export interface ObjectChange {
  action: string;
  eventDescription?: string | null;
  performedBy?: string | null;
  /** The new version's fields (before event count, transaction ids and time are set). May throw (e.g. 404). */
  apply(before: ObjectRecord): ObjectRecord | Promise<ObjectRecord>;
  /** The event's `changes`; by default the tracked fields that differ. */
  changes?(before: ObjectRecord, after: ObjectRecord): FieldChanges;
  /** Items written in the same transaction (their conditions failing counts as a lost race). */
  extraItems?(after: ObjectRecord): TransactItem[];
  /** Written too; its condition failing is not a lost race (an import row written already). */
  claim?: ObjectClaim;
}

class LostRaceError extends Error {}

/**
 * Applies a change to an object of the principal's company; returns the new version.
 * `startFrom` is the object as the caller just read it (visible): the first try builds on it
 * instead of reading it again; the write is conditioned on its event count anyway, so a change
 * in between costs one retry, which reads the object afresh (building on the object DynamoDB
 * returns with the refusal instead was measured: without the read, losers retry in step and
 * lose again more often; docs/ledger.md, "Hot objects").
 */
export async function changeObject(
  principal: Principal,
  objectId: string,
  change: ObjectChange,
  startFrom?: ObjectRecord,
): Promise<ObjectRecord> {
  let knownState = startFrom;
  // Another change took this sequence number: build again on top of it (lost-race-retry.ts).
  return retryLostRaces(
    'object',
    (error) => error instanceof LostRaceError,
    async () => {
      const before = knownState ?? (await findVisibleObject(principal.tenantId, objectId));
      knownState = undefined;
      if (!before) throw objectNotFound(objectId);
      const timestamp = nextTimestamp(before.updatedAt);
      const draft: ObjectRecord = {
        ...(await change.apply(before)),
        updatedAt: timestamp,
        eventCount: before.eventCount + 1,
      };
      const event = sealEvent({
        chainId: chainIdOf(objectChain(before)),
        ...nextLink({ eventCount: before.eventCount, lastHash: before.lastTxId }),
        action: change.action,
        changes: (change.changes ?? fieldChanges)(before, draft),
        eventDescription: change.eventDescription ?? null,
        performedBy: performedByOf(principal, change.performedBy),
        principal: actorOf(principal),
        timestamp,
      });
      const after: ObjectRecord = { ...draft, lastTxId: event.hash };
      // The claim carries its own error; any other failed condition is a lost race.
      await writeObjectVersion({
        before,
        after,
        chain: objectChain(after),
        event,
        extraItems: change.extraItems?.(after),
        claim: change.claim,
        onLostRace: () => new LostRaceError(),
      });
      return after;
    },
  );
}
