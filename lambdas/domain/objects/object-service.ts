/**
 * The rules of objects (spec 4.1-4.4 and the read extensions): every state change writes the
 * object and its ledger event in one transaction, conditioned on the object's event count, so
 * that concurrent changes can never lose or duplicate an event.
 */
import { randomUUID } from 'node:crypto';
import { chainSequenceAt, readChainUpTo } from '#repositories/ledger-repository.js';
import { type ChainRef, chainIdOf } from '#repositories/ledger-store.js';
import {
  findObjectByExternalId,
  findVisibleObject,
  listObjects as listObjectRecords,
  listSubcategoryObjects as listSubcategoryObjectRecords,
  type ObjectRecord,
  statusBucketOf,
  walkObjects,
  writeNewObject,
  writeNewObjectsTogether,
} from '#repositories/object-repository.js';
import { storedJournal } from '#repositories/stored-ledger.js';
import { findSubcategory, refusedSubcategoryStatus } from '#repositories/subcategory-repository.js';
import { nextTimestamp, nowIso, storedInstant, storedTimeRange } from '#shared/clock.js';
import { ConflictError, subcategoryNotFound, ValidationError } from '#shared/errors.js';
import { type CursorPage, type PageScope, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import { actorOf, type Principal, performedByOf } from '#shared/principal.js';
import { type Infer, METADATA_MAX_BYTES, type Metadata } from '#shared/schema.js';
import { type ChainVerification, verifyChain } from '../ledger/chain-verification.js';
import { type LedgerEventView, toEventView } from '../ledger/event-view.js';
import { type LedgerEvent, nextLink, sealEvent } from '../ledger/ledger-event.js';
import { statusAfter } from '../status-transitions.js';
import {
  changeObject,
  fieldChanges,
  type ObjectClaim,
  objectChain,
  objectNotFound,
} from './object-change.js';
import { replayObject } from './object-history.js';
import { OBJECT_TRANSITIONS } from './object-lifecycle.js';
import type {
  createObjectBody,
  listObjectEventsQuery,
  listObjectsQuery,
  listSubcategoryObjectsQuery,
  objectAsOfQuery,
  updateObjectBody,
} from './object-schemas.js';
import { type ObjectView, toObjectView } from './object-view.js';

type CreateObjectInput = Infer<typeof createObjectBody.shape>;
type UpdateObjectInput = Infer<typeof updateObjectBody.shape>;
type ListObjectsInput = Infer<typeof listObjectsQuery.shape>;
/** The filters and sort of spec 4.1, without the page. */
export type ListFilters = Omit<ListObjectsInput, 'limit' | 'offset' | 'cursor'>;
type PageInput = Infer<typeof listSubcategoryObjectsQuery.shape>;
type EventsInput = Infer<typeof listObjectEventsQuery.shape>;
/** When to read an object: now, or at an instant or after an event of its chain. */
export type ObjectMoment = Infer<typeof objectAsOfQuery.shape>;

/**
 * What a caller other than the API adds to a creation (an import row): the event's description
 * and performer, and an item written in the same transaction that carries the error its failed
 * condition means (the row was written already), which wins over the object's own conflicts.
 */
export interface CreationOptions {
  eventDescription?: string | null;
  performedBy?: string | null;
  claim?: ObjectClaim;
}

const subcategoryNotActive = (subcategoryId: string) =>
  new ConflictError(
    'SUBCATEGORY_NOT_ACTIVE',
    `Subcategory ${subcategoryId} is delisted and accepts no new objects`,
  );

/** A new object's record and its first ledger event. */
function objectCreation(
  principal: Principal,
  categoryId: string,
  subcategoryId: string,
  input: CreateObjectInput,
  options: CreationOptions,
  createdAt = nowIso(),
): { record: ObjectRecord; event: LedgerEvent } {
  const draft: ObjectRecord = {
    id: randomUUID(),
    companyId: principal.tenantId,
    externalId: input.externalId,
    name: input.name,
    description: input.description ?? '',
    summary: input.summary ?? null,
    owner: input.owner ?? '',
    status: 'active',
    categoryId,
    subcategoryId,
    metadata: input.metadata ?? {},
    createdAt,
    updatedAt: createdAt,
    txId: '',
    lastTxId: '',
    eventCount: 1,
    fileCount: 0,
  };
  const event = sealEvent({
    chainId: chainIdOf(objectChain(draft)),
    ...nextLink(undefined),
    action: 'create',
    changes: fieldChanges({}, draft),
    eventDescription: options.eventDescription ?? null,
    performedBy: performedByOf(principal, options.performedBy),
    principal: actorOf(principal),
    timestamp: createdAt,
  });
  const record: ObjectRecord = { ...draft, txId: event.hash, lastTxId: event.hash };
  return { record, event };
}

/**
 * Creates an `active` object in an active subcategory, with its first ledger event.
 *
 * @example
 * const object = await createObject(principal, categoryId, subcategoryId, { externalId: 'VIN-1', name: 'Truck' });
 * object.blockchain.eventCount // 1
 */
export async function createObject(
  principal: Principal,
  categoryId: string,
  subcategoryId: string,
  input: CreateObjectInput,
  options: CreationOptions = {},
): Promise<ObjectView> {
  const companyId = principal.tenantId;
  // No read first: the subcategory's counter item in the transaction refuses a missing, removed
  // or delisted subcategory, and its cancellation reason tells which.
  const { record, event } = objectCreation(principal, categoryId, subcategoryId, input, options);
  await writeNewObject({
    record,
    chain: objectChain(record),
    event,
    claim: options.claim,
    onSubcategoryRefused: async (reason) => {
      const status = await refusedSubcategoryStatus(reason, { companyId, categoryId, subcategoryId });
      return status === undefined || status === 'removed'
        ? subcategoryNotFound(subcategoryId)
        : subcategoryNotActive(subcategoryId);
    },
    onMissing: () => subcategoryNotFound(subcategoryId),
  });
  return toObjectView(record);
}

/** One object of {@link createObjectsTogether}. */
export interface ObjectToCreate {
  categoryId: string;
  subcategoryId: string;
  input: CreateObjectInput;
  options: CreationOptions;
}

/** Objects per transaction: 6 items each (with a claim) and up to 2 counters each, within DynamoDB's 100. */
export const OBJECTS_PER_TRANSACTION = 12;

/** Any condition of a {@link createObjectsTogether} failed: create them one by one to learn which. */
export class CreatedTogetherRefusedError extends Error {}

/**
 * Creates several objects in one transaction, exactly as {@link createObject} creates one (the
 * same items each, and the counters moved once by their sum): bulk imports, where one
 * transaction a row would serialize on the shared counters. All or none; any refusal throws
 * {@link CreatedTogetherRefusedError}.
 */
export async function createObjectsTogether(
  principal: Principal,
  objects: readonly ObjectToCreate[],
): Promise<ObjectView[]> {
  if (objects.length > OBJECTS_PER_TRANSACTION)
    throw new Error(`At most ${OBJECTS_PER_TRANSACTION} objects together`);
  const companyId = principal.tenantId;
  // Creation times a millisecond apart at least, in the given order: lists sorted by createdAt
  // show rows of an import in the file's order, not in the order of their random ids.
  let previous = '';
  const created = objects.map((object) => {
    const createdAt = previous === '' ? nowIso() : nextTimestamp(previous);
    previous = createdAt;
    return objectCreation(
      principal,
      object.categoryId,
      object.subcategoryId,
      object.input,
      object.options,
      createdAt,
    );
  });
  await writeNewObjectsTogether(
    companyId,
    created.map(({ record, event }, index) => ({
      record,
      chain: objectChain(record),
      event,
      claim: objects[index]?.options.claim,
    })),
    () => new CreatedTogetherRefusedError(),
  );
  return created.map(({ record }) => toObjectView(record));
}

function mergeMetadata(stored: Metadata, patch: Metadata | undefined): Metadata {
  if (!patch) return stored;
  const merged: Metadata = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    // defineProperty, not assignment: a key named "__proto__" must stay a plain key.
    else Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (Buffer.byteLength(JSON.stringify(merged), 'utf8') > METADATA_MAX_BYTES) {
    throw new ValidationError([
      {
        field: 'metadata',
        code: 'SIZE_INVALID',
        message: `merged metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON`,
      },
    ]);
  }
  return merged;
}

/** The object's fields after an action (spec 4.4): given fields changed, metadata merged, status moved. */
export function updatedFields(before: ObjectRecord, input: UpdateObjectInput): ObjectRecord {
  return {
    ...before,
    name: input.name ?? before.name,
    description: input.description ?? before.description,
    summary: input.summary ?? before.summary,
    owner: input.owner ?? before.owner,
    metadata: mergeMetadata(before.metadata, input.metadata),
    status: statusAfter(OBJECT_TRANSITIONS, input.action, before.status),
  };
}

/**
 * Applies an action (spec 4.4): changes the given fields, merges metadata, sets the status the
 * action leads to, and appends one ledger event (eventCount + 1, new lastTxId, txId kept).
 */
export async function updateObject(
  principal: Principal,
  objectId: string,
  input: UpdateObjectInput,
): Promise<ObjectView> {
  const after = await changeObject(principal, objectId, {
    action: input.action,
    eventDescription: input.eventDescription,
    performedBy: input.performedBy,
    apply: (before) => updatedFields(before, input),
  });
  return toObjectView(after);
}

/** The object as it stood at a moment: the view plus the moment and the event that set that state. */
export type ObjectAsOfView = ObjectView & { asOf: string; asOfEvent: { sequence: number; hash: string } };

/**
 * One object of the company; 404 `OBJECT_NOT_FOUND` for unknown and other companies' ids.
 * With `asOf` or `atSequence`, the object as it stood then, rebuilt from its ledger events.
 */
export async function getObject(
  companyId: string,
  objectId: string,
  moment: ObjectMoment = {},
): Promise<ObjectView | ObjectAsOfView> {
  checkMoment(moment);
  const record = await findVisibleObject(companyId, objectId);
  if (!record) throw objectNotFound(objectId);
  if (moment.asOf === undefined && moment.atSequence === undefined) return toObjectView(record);
  return asOfView(record, await eventsUpToMoment(record, moment), moment);
}

/** An object at a moment (now when none is asked), its ledger chain and its events up to then. */
export interface ObjectAtMoment {
  view: ObjectView | ObjectAsOfView;
  chain: ChainRef;
  /** From the first event to the one that set `view`, oldest first. */
  events: LedgerEvent[];
}

/**
 * What `getObject` answers, with the events that led to it, for the object's offline bundle
 * (`ledger/object-bundle.ts`) to prove. The same errors as `getObject`.
 */
export async function objectAtMoment(
  companyId: string,
  objectId: string,
  moment: ObjectMoment = {},
): Promise<ObjectAtMoment> {
  checkMoment(moment);
  const record = await findVisibleObject(companyId, objectId);
  if (!record) throw objectNotFound(objectId);
  const events = await eventsUpToMoment(record, moment);
  const now = moment.asOf === undefined && moment.atSequence === undefined;
  return {
    view: now ? toObjectView(record) : asOfView(record, events, moment),
    chain: objectChain(record),
    events,
  };
}

function checkMoment({ asOf, atSequence }: ObjectMoment): void {
  if (asOf !== undefined && atSequence !== undefined) {
    throw new ValidationError([
      { field: 'atSequence', code: 'FORMAT_INVALID', message: 'give asOf or atSequence, not both' },
    ]);
  }
}

/** The object's events up to the moment (all of them without one); 404 before its creation. */
async function eventsUpToMoment(
  record: ObjectRecord,
  { asOf, atSequence }: ObjectMoment,
): Promise<LedgerEvent[]> {
  if (atSequence !== undefined && atSequence > record.eventCount) {
    throw new ValidationError([
      {
        field: 'atSequence',
        code: 'RANGE_INVALID',
        message: `atSequence must be from 1 to the object's event count, ${record.eventCount}`,
      },
    ]);
  }
  const instant = asOf === undefined ? undefined : storedInstant(asOf);
  // The first event is stamped with createdAt: before it, the object did not exist.
  if (instant !== undefined && instant < record.createdAt) throw objectNotFound(record.id);
  const events = await readChainUpTo(objectChain(record), atSequence ?? record.eventCount, instant);
  if (events.length === 0) throw objectNotFound(record.id);
  return events;
}

/** The view of the object replayed to the last of `events`, with the moment asked and that event. */
function asOfView(record: ObjectRecord, events: LedgerEvent[], { asOf }: ObjectMoment): ObjectAsOfView {
  const last = events.at(-1) as LedgerEvent;
  return {
    ...toObjectView(replayObject(record, events)),
    asOf: asOf === undefined ? last.timestamp : storedInstant(asOf),
    asOfEvent: { sequence: last.sequence, hash: last.hash },
  };
}

/** The filters and sort of spec 4.1, as the repository reads them. */
const recordQueryOf = (query: ListFilters) => ({
  status: query.status,
  nameContains: query.name,
  ownerContains: query.owner,
  categoryId: query.categoryId,
  subcategoryId: query.subcategoryId,
  sort: query.sort,
});

/** Whether an object matches the filters of spec 4.1 (not `externalId`, which the lists look up). */
export function matchesFilters(record: ObjectRecord, query: ListFilters): boolean {
  const contains = (text: string, needle: string | undefined) =>
    needle === undefined ||
    text.normalize('NFC').toLowerCase().includes(needle.normalize('NFC').toLowerCase());
  return (
    (query.status === 'all' || statusBucketOf(record.status) === query.status) &&
    contains(record.name, query.name) &&
    contains(record.owner, query.owner) &&
    (query.categoryId === undefined || record.categoryId === query.categoryId) &&
    (query.subcategoryId === undefined || record.subcategoryId === query.subcategoryId)
  );
}

/** A page of the company's objects (spec 4.1), every filter and sort applied. */
export async function listObjects(
  companyId: string,
  query: ListObjectsInput,
): Promise<CursorPage<ObjectView>> {
  const { limit, offset, cursor, ...filtersAndSort } = query;
  const scope: PageScope = { tenantId: companyId, list: 'objects', parameters: filtersAndSort };
  const position = await pagePositionOf(query, scope);
  if (query.externalId !== undefined) {
    // Exact externalId: one marker lookup, whatever the company's size.
    const record = await findObjectByExternalId(companyId, query.externalId);
    const matches = record && matchesFilters(record, query) ? [record] : [];
    const page = matches.slice(position.offset, position.offset + position.limit).map(toObjectView);
    return toCursorPage(page, position, matches.length, scope);
  }
  const { records, total, lastKey } = await listObjectRecords(companyId, {
    ...recordQueryOf(query),
    ...position,
  });
  return toCursorPage(records.map(toObjectView), position, total, scope, lastKey);
}

/**
 * Every object that matches the filters and sort of spec 4.1, one index page at a time, in
 * the list's order (an export's walk: memory holds one page whatever the count).
 */
export async function* matchingObjects(
  companyId: string,
  query: ListFilters,
): AsyncGenerator<ObjectRecord[]> {
  if (query.externalId !== undefined) {
    const record = await findObjectByExternalId(companyId, query.externalId);
    if (record && matchesFilters(record, query)) yield [record];
    return;
  }
  yield* walkObjects(companyId, recordQueryOf(query));
}

/** A page of one subcategory's objects, newest first (spec 4.2). */
export async function listSubcategoryObjects(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
  query: PageInput,
): Promise<CursorPage<ObjectView>> {
  const scope: PageScope = { tenantId: companyId, list: `subcategoryObjects:${categoryId}:${subcategoryId}` };
  const position = await pagePositionOf(query, scope);
  const subcategory = await findSubcategory(companyId, categoryId, subcategoryId);
  if (!subcategory || subcategory.status === 'removed') throw subcategoryNotFound(subcategoryId);
  const { records, lastKey } = await listSubcategoryObjectRecords(companyId, subcategoryId, position);
  return toCursorPage(records.map(toObjectView), position, subcategory.objectCount, scope, lastKey);
}

/** A page of an object's ledger events, oldest first, optionally of a time range. */
export async function listObjectEvents(
  companyId: string,
  objectId: string,
  query: EventsInput,
): Promise<CursorPage<LedgerEventView>> {
  const { since, until } = query;
  storedTimeRange(query);
  // Events are keyed by their sequence, so any offset reads only its page: the cursor holds the offset.
  const scope: PageScope = { tenantId: companyId, list: `events:${objectId}`, parameters: { since, until } };
  const position = await pagePositionOf(query, scope);
  const record = await findVisibleObject(companyId, objectId);
  if (!record) throw objectNotFound(objectId);
  const chain = objectChain(record);
  const { first, last } = await sequenceRange(chain, record.eventCount, query);
  const total = Math.max(0, last - first + 1);
  const count = Math.min(position.limit, total - position.offset);
  const events = count > 0 ? await storedJournal.listEvents(chain, first - 1 + position.offset, count) : [];
  return toCursorPage(events.map(toEventView), position, total, scope);
}

/**
 * The sequences of the first and last events of a time range (`since` inclusive, `until`
 * exclusive): timestamps grow with the sequence, so the range is a window of sequences. Each
 * bound given costs one single-item Query of the chain's time index; none, nothing.
 */
async function sequenceRange(
  chain: ChainRef,
  eventCount: number,
  range: { since?: string; until?: string },
): Promise<{ first: number; last: number }> {
  const [first, last] = await Promise.all([
    range.since === undefined ? 1 : chainSequenceAt(chain, storedInstant(range.since), 'from'),
    range.until === undefined ? eventCount : chainSequenceAt(chain, storedInstant(range.until), 'before'),
  ]);
  // No event at or after `since`, or none before `until`: an empty range.
  if (first === undefined || last === undefined) return { first: 1, last: 0 };
  return { first, last: Math.min(last, eventCount) };
}

/** The ledger chain of a company's object (404 for another company's, as everywhere). */
export async function objectLedgerChain(companyId: string, objectId: string): Promise<ChainRef> {
  const record = await findVisibleObject(companyId, objectId);
  if (!record) throw objectNotFound(objectId);
  return objectChain(record);
}

/** Recomputes the object's chain and compares it with the object's record. */
export async function verifyObject(
  companyId: string,
  objectId: string,
): Promise<ChainVerification & { objectId: string }> {
  const record = await findVisibleObject(companyId, objectId);
  if (!record) throw objectNotFound(objectId);
  const events = await storedJournal.readChain(objectChain(record));
  return {
    objectId,
    ...verifyChain(events, {
      eventCount: record.eventCount,
      firstTxId: record.txId,
      lastTxId: record.lastTxId,
    }),
  };
}
