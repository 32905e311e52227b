/**
 * An object as it stood at an earlier moment (`?asOf=`, `?atSequence=` on both GET paths of an
 * object) and an object's events over a time range (`?since=`, `?until=`).
 */
import { givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getCompanyObject,
  getObject,
  listObjectEvents,
  type ObjectBody,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

interface EventBody {
  sequence: number;
  hash: string;
  timestamp: string;
}

/** One millisecond before or after an ISO instant. */
const shifted = (instant: string, milliseconds: number) =>
  new Date(Date.parse(instant) + milliseconds).toISOString();

/** An object with four events, and its state after each (index 0: after event 1). */
async function givenObjectWithHistory() {
  const principal = companyPrincipal();
  const created = await createObjectOk(principal, await givenSubcategoryPath(principal), {
    name: 'Crane',
    owner: 'Alice',
    metadata: { plate: 'A-1' },
  });
  const states: ObjectBody[] = [created];
  states.push(await updateObjectOk(principal, created.id, { action: 'update', summary: 'Yellow' }));
  states.push(await updateObjectOk(principal, created.id, { action: 'transfer', owner: 'Bob' }));
  states.push(
    await updateObjectOk(principal, created.id, {
      action: 'report_stolen',
      metadata: { plate: null, vin: 'V' },
    }),
  );
  const events = (await listObjectEvents(principal, created.id)).body.data as EventBody[];
  return { principal, objectId: created.id, states, events };
}

describe('an object as of a moment', () => {
  it('answers the state after each event, by instant and by sequence, on both paths', async () => {
    // Prepare
    const { principal, objectId, states, events } = await givenObjectWithHistory();
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
    for (const [index, event] of events.entries()) {
      const expected = { ...states[index], asOfEvent: { sequence: event.sequence, hash: event.hash } };
      // Act
      const atInstant = await getObject(principal, objectId, { asOf: event.timestamp });
      const next = events[index + 1];
      // The last millisecond before the next event (at least this event's own instant).
      const beforeNext = next ? shifted(next.timestamp, -1) : event.timestamp;
      const justBeforeNext = await getObject(principal, objectId, { asOf: beforeNext });
      const atSequence = await getObject(principal, objectId, { atSequence: String(event.sequence) });
      const companyPath = await getCompanyObject(principal, principal.tenantId, objectId, {
        asOf: event.timestamp,
      });
      // Assess
      expect(atInstant.statusCode).toBe(200);
      expect(atInstant.body).toEqual({ ...expected, asOf: event.timestamp });
      expect(justBeforeNext.body).toEqual({ ...expected, asOf: beforeNext });
      expect(atSequence.body).toEqual({ ...expected, asOf: event.timestamp });
      expect(companyPath.body).toEqual(atInstant.body);
    }
    // Later than every event: the object as it is, with the instant asked.
    const later = shifted(events[3]?.timestamp as string, 60_000);
    const now = await getObject(principal, objectId, { asOf: later });
    expect(now.body).toEqual({
      ...states[3],
      asOf: later,
      asOfEvent: { sequence: 4, hash: events[3]?.hash },
    });
    // Without the parameters: the object as today, with neither field.
    expect((await getObject(principal, objectId)).body).toEqual(states[3]);
  });

  it('answers 404 before the object existed', async () => {
    const { principal, objectId, events } = await givenObjectWithHistory();
    const before = shifted(events[0]?.timestamp as string, -1);
    for (const response of [
      await getObject(principal, objectId, { asOf: before }),
      await getCompanyObject(principal, principal.tenantId, objectId, { asOf: before }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body.code).toBe('OBJECT_NOT_FOUND');
    }
  });

  it('answers 400 VALIDATION_ERROR for a malformed instant, both parameters, or a sequence out of range', async () => {
    const { principal, objectId, events } = await givenObjectWithHistory();
    const refused = [
      [{ asOf: 'yesterday' }, 'asOf'],
      [{ asOf: '2026-13-01T00:00:00Z' }, 'asOf'],
      [{ atSequence: '0' }, 'atSequence'],
      [{ atSequence: '5' }, 'atSequence'],
      [{ atSequence: 'two' }, 'atSequence'],
      [{ asOf: events[0]?.timestamp as string, atSequence: '1' }, 'atSequence'],
    ] as const;
    for (const [query, field] of refused) {
      for (const response of [
        await getObject(principal, objectId, query),
        await getCompanyObject(principal, principal.tenantId, objectId, query),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.body.code).toBe('VALIDATION_ERROR');
        expect(response.body.validationErrors).toEqual([expect.objectContaining({ field })]);
      }
    }
  });
});

describe("an object's events over a time range", () => {
  it('lists the events from since (inclusive) to until (exclusive), page after page by cursor', async () => {
    // Prepare
    const { principal, objectId, events } = await givenObjectWithHistory();
    const stamp = (sequence: number) => events[sequence - 1]?.timestamp as string;
    const sequencesOf = (response: { body: { data: EventBody[] } }) =>
      response.body.data.map((event) => event.sequence);
    // Act, Assess
    expect(sequencesOf(await listObjectEvents(principal, objectId, { since: stamp(2) }))).toEqual([2, 3, 4]);
    expect(sequencesOf(await listObjectEvents(principal, objectId, { until: stamp(3) }))).toEqual([1, 2]);
    expect(
      sequencesOf(
        await listObjectEvents(principal, objectId, { since: shifted(stamp(1), 1), until: stamp(4) }),
      ),
    ).toEqual([2, 3]);
    expect(sequencesOf(await listObjectEvents(principal, objectId, { since: shifted(stamp(4), 1) }))).toEqual(
      [],
    );
    expect(sequencesOf(await listObjectEvents(principal, objectId, { until: stamp(1) }))).toEqual([]);

    const first = await listObjectEvents(principal, objectId, { since: stamp(2), limit: '2' });
    expect(sequencesOf(first)).toEqual([2, 3]);
    expect(first.body.pagination).toMatchObject({ total: 3, hasNext: true, offset: 0 });
    const second = await listObjectEvents(principal, objectId, {
      since: stamp(2),
      limit: '2',
      cursor: first.body.pagination.nextCursor,
    });
    expect(sequencesOf(second)).toEqual([4]);
    expect(second.body.pagination).toMatchObject({ total: 3, hasNext: false, nextCursor: null });
    const byOffset = await listObjectEvents(principal, objectId, {
      since: stamp(2),
      limit: '2',
      offset: '2',
    });
    expect(sequencesOf(byOffset)).toEqual([4]);
    // A cursor of another range is refused.
    const otherRange = await listObjectEvents(principal, objectId, {
      since: stamp(1),
      limit: '2',
      cursor: first.body.pagination.nextCursor,
    });
    expect(otherRange.statusCode).toBe(400);
  });

  it('answers 400 VALIDATION_ERROR for a malformed instant or since not before until', async () => {
    const { principal, objectId, events } = await givenObjectWithHistory();
    const instant = events[1]?.timestamp as string;
    const refused: Record<string, string>[] = [
      { since: 'last week' },
      { until: '2026-02-30' },
      { since: instant, until: instant },
      { since: instant, until: events[0]?.timestamp as string },
    ];
    for (const query of refused) {
      const response = await listObjectEvents(principal, objectId, query);
      expect(response.statusCode).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });
});
