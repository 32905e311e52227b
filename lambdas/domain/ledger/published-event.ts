/**
 * A committed ledger event as the outside world hears of it: on the EventBridge bus (`source`
 * `asset-registry`, `detail-type` = {@link PublishedEvent.type}, `detail` = `data`) and in the
 * body of every webhook delivery (Standard Webhooks: `{ type, timestamp, data }`). Built only
 * from the event item, which holds no secret and no password hash.
 */
import { type ChainRef, chainRefOf } from '#repositories/ledger-store.js';
import { eventTypeOf } from './event-types.js';
import type { FieldChanges, LedgerEvent } from './ledger-event.js';

interface PublishedEventData {
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
