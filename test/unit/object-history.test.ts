/** Rebuilding an object from its ledger events (`replayObject`), without a table. */

import { type LedgerEvent, nextLink, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { fieldChanges } from '../../lambdas/domain/objects/object-change';
import { replayObject } from '../../lambdas/domain/objects/object-history';
import type { ObjectRecord } from '../../lambdas/repositories/object-entity';

const CREATED: ObjectRecord = {
  id: '11111111-1111-4111-8111-111111111111',
  companyId: '22222222-2222-4222-8222-222222222222',
  externalId: 'VIN-1',
  name: 'Crane',
  description: '',
  summary: null,
  owner: 'Alice',
  status: 'active',
  categoryId: '33333333-3333-4333-8333-333333333333',
  subcategoryId: '44444444-4444-4444-8444-444444444444',
  metadata: { plate: 'A-1' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  txId: '',
  lastTxId: '',
  eventCount: 1,
  fileCount: 0,
};

/** The versions of an object, each sealed into its event the way `changeObject` does. */
function historyOf(versions: ObjectRecord[]): LedgerEvent[] {
  const events: LedgerEvent[] = [];
  let before: Partial<ObjectRecord> = {};
  for (const [index, version] of versions.entries()) {
    const previous = events.at(-1);
    events.push(
      sealEvent({
        chainId: `object:${version.companyId}:${version.id}`,
        ...nextLink(previous ? { eventCount: previous.sequence, lastHash: previous.hash } : undefined),
        action: index === 0 ? 'create' : 'update',
        changes: fieldChanges(before, version),
        eventDescription: null,
        performedBy: null,
        principal: 'apiKey:test',
        timestamp: `2026-01-0${index + 1}T00:00:00.000Z`,
      }),
    );
    before = version;
  }
  return events;
}

describe('replayObject', () => {
  it('rebuilds each version from the events up to it, fields set later back to null before', () => {
    // Prepare
    const versions: ObjectRecord[] = [
      CREATED,
      { ...CREATED, summary: 'Yellow', metadata: { plate: 'A-1', vin: 'V' } },
      { ...CREATED, summary: 'Yellow', owner: 'Bob', status: 'stolen', metadata: { vin: 'V' } },
    ];
    const events = historyOf(versions);
    const current: ObjectRecord = {
      ...(versions[2] as ObjectRecord),
      createdAt: events[0]?.timestamp as string,
      updatedAt: events[2]?.timestamp as string,
      txId: events[0]?.hash as string,
      lastTxId: events[2]?.hash as string,
      eventCount: 3,
      fileCount: 2,
    };
    // Act
    const replayed = events.map((_, index) => replayObject(current, events.slice(0, index + 1)));
    // Assess
    replayed.forEach((record, index) => {
      const event = events[index] as LedgerEvent;
      expect(record).toEqual({
        ...versions[index],
        createdAt: events[0]?.timestamp,
        updatedAt: event.timestamp,
        txId: events[0]?.hash,
        lastTxId: event.hash,
        eventCount: index + 1,
        fileCount: 2,
      });
    });
    expect(replayed[2]).toEqual(current);
  });

  it('refuses an empty history', () => {
    expect(() => replayObject(CREATED, [])).toThrow('at least the first event');
  });
});
