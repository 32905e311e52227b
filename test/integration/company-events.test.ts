/**
 * The company's activity (`GET /v2/events`): every ledger event of the company in a time range,
 * newest first, each with its object and external id, by cursor pages, filtered by action, and
 * never another company's.
 */
import { handler as listCompanyEventsHandler } from '../../lambdas/handlers/ledger/list-company-events';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { givenSubcategoryPath } from '../support/fixtures';
import { createObjectOk, listObjectEvents, updateObjectOk } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

interface ActivityEvent {
  action: string;
  sequence: number;
  timestamp: string;
  hash: string;
  txId: string;
  objectId: string | null;
  externalId: string | null;
  subcategoryId: string | null;
}
interface ActivityPage {
  data: ActivityEvent[];
  pagination: { limit: number; total: null; hasNext: boolean; nextCursor: string | null };
}

const listCompanyEvents = (principal: Principal, query?: Record<string, string>) =>
  invoke(listCompanyEventsHandler, {
    method: 'GET',
    path: '/v2/events',
    resource: '/v2/events',
    principal,
    query,
  });

async function pageOk(principal: Principal, query?: Record<string, string>): Promise<ActivityPage> {
  const response = await listCompanyEvents(principal, query);
  expect(response.statusCode).toBe(200);
  return response.body as ActivityPage;
}

/** Two objects with three and two events, made in this order: A1 B1 A2 B2 A3. */
async function givenCompanyHistory() {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const a = await createObjectOk(principal, place, { name: 'Crane', externalId: `A-${Date.now()}` });
  const b = await createObjectOk(principal, place, { name: 'Truck', externalId: `B-${Date.now()}` });
  await updateObjectOk(principal, a.id, { action: 'transfer', owner: 'Bob' });
  await updateObjectOk(principal, b.id, { action: 'repair', eventDescription: 'brakes' });
  await updateObjectOk(principal, a.id, { action: 'update', summary: 'Yellow' });
  const eventsOf = async (id: string) => (await listObjectEvents(principal, id)).body.data as ActivityEvent[];
  const [aEvents, bEvents] = [await eventsOf(a.id), await eventsOf(b.id)];
  return { principal, place, a, b, aEvents, bEvents };
}

describe("a company's activity", () => {
  it('lists every event of the company, newest first, with its object and external id', async () => {
    // Prepare
    const { principal, a, b, aEvents, bEvents } = await givenCompanyHistory();
    // Act
    const page = await pageOk(principal);
    // Assess
    const objectEvents = page.data.filter((event) => event.objectId !== null);
    expect(objectEvents.map((event) => [event.externalId, event.sequence, event.action])).toEqual([
      [a.externalId, 3, 'update'],
      [b.externalId, 2, 'repair'],
      [a.externalId, 2, 'transfer'],
      [b.externalId, 1, 'create'],
      [a.externalId, 1, 'create'],
    ]);
    const newest = objectEvents[0] as ActivityEvent;
    expect(newest).toMatchObject({ ...aEvents[2], objectId: a.id, subcategoryId: null });
    expect(objectEvents[1]).toMatchObject({ hash: bEvents[1]?.hash, txId: bEvents[1]?.hash });
    expect(page.pagination).toMatchObject({ total: null, hasNext: false, nextCursor: null });
  });

  it('takes a time range, since inclusive and until exclusive', async () => {
    const { principal, aEvents, bEvents } = await givenCompanyHistory();
    const since = bEvents[0]?.timestamp as string;
    const until = aEvents[2]?.timestamp as string;
    const page = await pageOk(principal, { since, until });
    expect(page.data.map((event) => event.hash)).toEqual(
      [bEvents[1], aEvents[1], bEvents[0]].map((event) => event?.hash),
    );
  });

  it('filters by action', async () => {
    const { principal, a, b } = await givenCompanyHistory();
    const page = await pageOk(principal, { action: 'create' });
    expect(page.data.map((event) => event.objectId)).toEqual([b.id, a.id]);
  });

  it('reads on by cursor, page by page, without repeating or skipping an event', async () => {
    const { principal, aEvents, bEvents } = await givenCompanyHistory();
    const seen: string[] = [];
    let query: Record<string, string> = { limit: '2', since: aEvents[0]?.timestamp as string };
    for (;;) {
      const page = await pageOk(principal, query);
      seen.push(...page.data.map((event) => event.hash));
      if (!page.pagination.nextCursor) break;
      expect(page.pagination.hasNext).toBe(true);
      query = { ...query, cursor: page.pagination.nextCursor };
    }
    expect(seen).toEqual(
      [aEvents[2], bEvents[1], aEvents[1], bEvents[0], aEvents[0]].map((event) => event?.hash),
    );
  });

  it("never shows another company's events", async () => {
    const { principal } = await givenCompanyHistory();
    const other = companyPrincipal();
    const mine = await pageOk(principal);
    const theirs = await pageOk(other);
    const myHashes = new Set(mine.data.map((event) => event.hash));
    expect(theirs.data.filter((event) => myHashes.has(event.hash))).toEqual([]);
  });

  it('answers 400 VALIDATION_ERROR for a malformed instant, an empty range, an unknown action, another list’s cursor', async () => {
    const { principal } = await givenCompanyHistory();
    const at = new Date().toISOString();
    const queries: Array<Record<string, string>> = [
      { since: 'yesterday' },
      { since: at, until: at },
      { action: 'explode' },
      { cursor: 'not-a-cursor' },
    ];
    for (const query of queries) {
      const response = await listCompanyEvents(principal, query);
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});
