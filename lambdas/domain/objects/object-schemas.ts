/** Request shapes of the object operations (spec 4.1-4.4, limits in section 2.2 and 8). */
import { objectEntity } from '#repositories/object-entity.js';
import { pageQueryFields } from '#shared/pagination.js';
import { PERFORMED_BY_MAX } from '#shared/principal.js';
import { dateTime, defaulted, integer, object, oneOf, optional, required, string } from '#shared/schema.js';

const OBJECT_ACTIONS = ['update', 'transfer', 'repair', 'report_stolen'] as const;
export type ObjectAction = (typeof OBJECT_ACTIONS)[number];

const OBJECT_SORTS = ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'] as const;

/** Our bounds for the event fields the spec leaves open. */
const EVENT_DESCRIPTION_MAX = 1000;

const uuid = () => string({ format: 'uuid' });
const { attributes } = objectEntity;
const objectName = attributes.name.schema;
const objectDescription = attributes.description.schema;
const objectSummary = attributes.summary.schema.nonNull;
const objectOwner = attributes.owner.schema;

export const objectIdPath = object({ objectId: required(uuid()) });

export const subcategoryObjectsPath = object({
  categoryId: required(uuid()),
  subcategoryId: required(uuid()),
});

export const createObjectBody = object({
  externalId: required(attributes.externalId.schema, 'unique within the company'),
  name: required(objectName),
  description: optional(objectDescription),
  summary: optional(objectSummary),
  owner: optional(objectOwner),
  metadata: optional(attributes.metadata.schema),
});

export const updateObjectBody = object(
  {
    action: required(oneOf(OBJECT_ACTIONS)),
    name: optional(objectName),
    description: optional(objectDescription),
    summary: optional(objectSummary),
    owner: optional(objectOwner, 'required (1-100 characters) when action is transfer'),
    eventDescription: optional(string({ max: EVENT_DESCRIPTION_MAX }), 'recorded in the ledger event'),
    performedBy: optional(string({ max: PERFORMED_BY_MAX }), 'recorded in the ledger event'),
    metadata: optional(
      attributes.metadata.schema,
      'merged into the stored metadata; a key set to null is removed',
    ),
  },
  { requiredWhen: { owner: { field: 'action', equals: 'transfer' } } },
);

export const listObjectsQuery = object({
  ...pageQueryFields(),
  status: defaulted(
    oneOf(['active', 'inactive', 'all'] as const),
    'active',
    '`inactive` matches every status but active',
  ),
  name: optional(string({ max: 200 }), 'case-insensitive partial match'),
  externalId: optional(attributes.externalId.schema, 'exact match'),
  categoryId: optional(uuid()),
  subcategoryId: optional(uuid()),
  owner: optional(string({ max: 100 }), 'case-insensitive partial match'),
  sort: defaulted(oneOf(OBJECT_SORTS), 'createdAt:desc'),
});

/** Spec 4.2 leaves the default page size open: we use the spec's general default, 20. */
export const listSubcategoryObjectsQuery = object({ ...pageQueryFields() });

/** The moment to read an object at (docs/api-decisions.md, "An object as it stood"). */
export const objectAsOfQuery = object({
  asOf: optional(
    dateTime(),
    '(extension) the object as it stood at this instant (ISO 8601 UTC), rebuilt from its ledger events; 404 before it existed. Not with atSequence',
  ),
  atSequence: optional(
    integer({ min: 1, fromQueryString: true }),
    "(extension) the object as it stood after its event of this sequence (1 to the object's eventCount). Not with asOf",
  ),
});

export const listObjectEventsQuery = object({
  ...pageQueryFields(),
  since: optional(dateTime(), '(extension) only events stamped at or after this instant (ISO 8601 UTC)'),
  until: optional(
    dateTime(),
    '(extension) only events stamped before this instant (ISO 8601 UTC); later than since',
  ),
});
