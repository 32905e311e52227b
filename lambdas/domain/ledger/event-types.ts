/**
 * The names of published events: `source` and the `detail-type` of each ledger action (the table in
 * docs/events.md). Kept apart from the publishing code so that request schemas (the webhook
 * `events` filter) can use them without loading any data access.
 */
import type { ChainRef } from '#repositories/ledger-store.js';

/** The EventBridge `source` of every event. */
export const EVENT_SOURCE = 'asset-registry';

/** Event type of each ledger action, per chain kind (the table in docs/events.md). */
const EVENT_TYPES = {
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

/** Every action of every chain kind, for the activity's `action` filter. */
export const ACTIONS_OF_CHAINS: readonly string[] = [
  ...new Set(Object.values(EVENT_TYPES).flatMap((types) => Object.keys(types))),
];

/** The event type of an action on a chain of the given kind. */
export function eventTypeOf(kind: ChainRef['kind'], action: string): string {
  const known = (EVENT_TYPES[kind] as Record<string, string>)[action];
  return known ?? `${kind}.${action.toLowerCase()}`;
}
