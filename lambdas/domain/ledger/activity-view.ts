/**
 * The company's activity (`GET /v2/events`): its query and the shape of one event in it. Apart
 * from `company-activity.ts`, which reads the table, so that the operation row and the OpenAPI
 * document load no data access.
 */
import { ledgerEventEntity } from '#repositories/ledger-event-entity.js';
import { computed, defineView, type ViewOf } from '#shared/entity.js';
import type { CursorPage } from '#shared/page-cursor.js';
import { pageQueryFields } from '#shared/pagination.js';
import { dateTime, nullable, object, oneOf, optional, string } from '#shared/schema.js';
import { ACTIONS_OF_CHAINS } from './event-types.js';

export const listCompanyEventsQuery = object({
  ...pageQueryFields(),
  since: optional(dateTime(), 'only events stamped at or after this instant (ISO 8601 UTC)'),
  until: optional(dateTime(), 'only events stamped before this instant (ISO 8601 UTC); later than since'),
  action: optional(oneOf(ACTIONS_OF_CHAINS), "only events of this action (an object's or a subcategory's)"),
});

export const activityEventView = defineView(ledgerEventEntity, {
  name: 'ActivityEvent',
  description: 'Extension: one ledger event of the company, with what it belongs to',
  fields: {
    txId: computed(ledgerEventEntity.attributes.hash.schema, { description: 'equals `hash`' }),
    objectId: computed(nullable(string({ format: 'uuid' })), {
      description: "the object's id; null for a subcategory's event",
    }),
    externalId: computed(nullable(string()), {
      description:
        "the object's external id as it is now; null for a subcategory's event or a removed object",
    }),
    subcategoryId: computed(nullable(string({ format: 'uuid' })), {
      description: "the subcategory's id for a subcategory's event; null for an object's",
    }),
  },
});
export type ActivityEventView = ViewOf<typeof activityEventView>;

/** A page of activity: `total` is null, since counting a time range would read all of it. */
export type ActivityPage = Omit<CursorPage<ActivityEventView>, 'pagination'> & {
  pagination: Omit<CursorPage<ActivityEventView>['pagination'], 'total'> & { total: null };
};
