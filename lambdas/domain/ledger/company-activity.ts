/**
 * `GET /v2/events` (extension): what changed across a company in a time range. Every ledger
 * event of the company's chains (objects and subcategories), newest first, each with the object
 * (or subcategory) it belongs to and the object's external id. A page costs one Query of the
 * company's time index and one BatchGetItem of the page's objects, whatever the company's size.
 */
import { readActivityWindow } from '#repositories/company-activity-repository.js';
import type { LedgerEvent } from '#repositories/ledger-event-entity.js';
import { findObjects } from '#repositories/object-repository.js';
import { storedTimeRange } from '#shared/clock.js';
import { type PageScope, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import { type ActivityEventView, type ActivityPage, activityEventView } from './activity-view.js';

export async function listCompanyEvents(
  companyId: string,
  query: {
    limit: number;
    offset: number;
    cursor?: string;
    since?: string;
    until?: string;
    action?: string;
  },
): Promise<ActivityPage> {
  const { since, until } = storedTimeRange(query);
  const scope: PageScope = {
    tenantId: companyId,
    list: 'events',
    parameters: { since, until, action: query.action },
  };
  const position = await pagePositionOf(query, scope);
  const window = await readActivityWindow({ companyId, since, until, action: query.action, ...position });
  const objectIds = window.events.flatMap(({ chain }) => (chain.kind === 'object' ? [chain.entityId] : []));
  const objects = await findObjects(companyId, objectIds);
  const data = window.events.map(({ chain, event }) => toActivityView(event, chain, objects));
  // The page's flags and cursor follow from whether more events follow; the total is not known.
  const knownTotal = position.offset + data.length + (window.more ? 1 : 0);
  const page = await toCursorPage(data, position, knownTotal, scope, window.lastKey);
  return { data: page.data, pagination: { ...page.pagination, total: null } };
}

function toActivityView(
  event: LedgerEvent,
  chain: { kind: string; entityId: string },
  objects: Map<string, { externalId: string }>,
): ActivityEventView {
  const isObject = chain.kind === 'object';
  return activityEventView.toView(event, {
    txId: event.hash,
    objectId: isObject ? chain.entityId : null,
    externalId: isObject ? (objects.get(chain.entityId)?.externalId ?? null) : null,
    subcategoryId: isObject ? null : chain.entityId,
  });
}
