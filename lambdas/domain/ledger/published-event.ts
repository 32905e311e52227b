/**
 * A committed ledger event as the outside world hears of it: on the EventBridge bus (`source`
 * `asset-registry`, `detail-type` = {@link PublishedEvent.type}, `detail` = `data`) and in the
 * body of every webhook delivery (Standard Webhooks: `{ type, timestamp, data }`). Built only
 * from the event item, which holds no secret and no password hash.
 */
import { type ChainRef, chainRefOf } from '#repositories/ledger-repository.js';
import type { FieldChanges, LedgerEvent } from './ledger-event.js';

/** The EventBridge `source` of every event. */
export const EVENT_SOURCE = 'asset-registry';

/** Event type of each ledger action, per chain kind (the README's table). */
export const EVENT_TYPES = {
  object: {
    create: 'object.created',
    update: 'object.updated',
    transfer: 'object.transferred',
    repair: 'object.repaired',
    report_stolen: 'object.reported_stolen',
    file_upload: 'file.uploaded',
    file_delete: 'file.deleted',
  },
  subcategory: {
    CREATE: 'subcategory.created',
    CHANGE: 'subcategory.updated',
    ACTIVATE: 'subcategory.activated',
    DEACTIVATE: 'subcategory.deactivated',
    REMOVE: 'subcategory.removed',
  },
} as const satisfies Record<ChainRef['kind'], Record<string, string>>;

/** Every event type, for the webhook `events` filter. */
export const ALL_EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPES).flatMap((types) =>
  Object.values(types),
);

export interface PublishedEventData {
  companyId: string;
  /** `object` or `subcategory`: whose chain the event extends. */
  entity: ChainRef['kind'];
  /** The object's id (also for file events) or the subcategory's id. */
  entityId: string;
  objectId?: string;
  subcategoryId?: string;
  /** The file's id, for `file.uploaded` and `file.deleted`. */
  fileId?: string;
  /** Position in the entity's chain (1, 2, ...): receivers order and de-duplicate by it. */
  sequence: number;
  action: string;
  changes: FieldChanges;
  eventDescription: string | null;
  performedBy: string | null;
  principal: string;
  timestamp: string;
  hash: string;
  prevHash: string;
}

export interface PublishedEvent {
  type: string;
  timestamp: string;
  data: PublishedEventData;
}

/** The event type of an action on a chain of the given kind. */
export function eventTypeOf(kind: ChainRef['kind'], action: string): string {
  const known = (EVENT_TYPES[kind] as Record<string, string>)[action];
  return known ?? `${kind}.${action.toLowerCase()}`;
}

function fileIdOf(changes: FieldChanges): string | undefined {
  const file = changes.file;
  const shown = (file?.to ?? file?.from) as { id?: unknown } | null | undefined;
  return typeof shown?.id === 'string' ? shown.id : undefined;
}

/**
 * The published form of a ledger event.
 *
 * @example
 * publishedEventOf(event).type // 'object.transferred'
 */
export function publishedEventOf(event: LedgerEvent): PublishedEvent {
  const chain = chainRefOf(event.chainId);
  const fileId = fileIdOf(event.changes);
  return {
    type: eventTypeOf(chain.kind, event.action),
    timestamp: event.timestamp,
    data: {
      companyId: chain.tenantId,
      entity: chain.kind,
      entityId: chain.entityId,
      ...(chain.kind === 'object' ? { objectId: chain.entityId } : { subcategoryId: chain.entityId }),
      ...(fileId ? { fileId } : {}),
      sequence: event.sequence,
      action: event.action,
      changes: event.changes,
      eventDescription: event.eventDescription,
      performedBy: event.performedBy,
      principal: event.principal,
      timestamp: event.timestamp,
      hash: event.hash,
      prevHash: event.prevHash,
    },
  };
}
