/**
 * The ledger event entity: one per state change of a chained entity (an object, a subcategory). Its
 * attributes but `hash` are the hashed body (docs/ledger.md, "Canonical event serialization"): an
 * attribute added here is hashed too, so it changes every new event's hash. Its keys:
 * `ledgerEventKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { ACTOR_FORMATS } from '#shared/principal.js';
import { dateTime, integer, nullable, string, writtenByService } from '#shared/schema.js';

/** A field's value before and after the change. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** The `entity` of event items: the table stream publishes exactly these (filtered on it in AWS). */
export const LEDGER_EVENT_ENTITY = 'ledgerEvent';

/**
 * The stream records events out publishes: event items inserted (a Lambda event filter pattern).
 * `lib/events-out.ts` puts it on the publisher's event source mapping and local mode's stream
 * reader (`local/table-stream.ts`) applies the same pattern.
 */
export const LEDGER_EVENT_INSERT_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: [LEDGER_EVENT_ENTITY] } } },
} as const;

const sha256Hex = () => string({ pattern: /^[0-9a-f]{64}$/ });

/** `{ field: { from, to } }`, any JSON values. */
const fieldChanges = writtenByService<FieldChanges>({
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { from: {}, to: {} },
    required: ['from', 'to'],
    additionalProperties: false,
  },
});

export const ledgerEventEntity = defineEntity(LEDGER_EVENT_ENTITY, {
  /** Which chain: `object:<companyId>:<objectId>` or `subcategory:<companyId>:<subcategoryId>`. */
  chainId: attribute(string(), {
    description: '`object:<companyId>:<objectId>` (or `subcategory:...`): hashed, so shown',
  }),
  /** 1 for the first event of the chain, then +1. */
  sequence: attribute(integer({ min: 1 })),
  action: attribute(string(), {
    description: '`create`, `update`, `transfer`, `repair`, `report_stolen`, `file_upload`, ...',
  }),
  // JSON text keeps any value exactly (DynamoDB numbers and maps would not).
  changes: attribute(fieldChanges, { storedAs: 'json' }),
  eventDescription: attribute(nullable(string()), { missing: null }),
  performedBy: attribute(nullable(string()), { missing: null }),
  /** The authenticated caller that caused it (`actorOf`). */
  principal: attribute(string(), { description: ACTOR_FORMATS }),
  timestamp: attribute(dateTime()),
  prevHash: attribute(sha256Hex(), { description: '64 zeros for the first event' }),
  hash: attribute(sha256Hex(), {
    description:
      'SHA-256 of the canonical JSON of every other field but txId (docs/ledger.md, "Canonical event serialization")',
  }),
});

/** A sealed event: its hashed body and the hash. */
export type LedgerEvent = RecordOf<typeof ledgerEventEntity>;
