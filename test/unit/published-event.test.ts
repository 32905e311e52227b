/** How a ledger event is published: its type, and what its data carries (no secret). */

import { ALL_EVENT_TYPES, eventTypeOf } from '../../lambdas/domain/ledger/event-types';
import { sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { publishedEventOf } from '../../lambdas/domain/ledger/published-event';

describe('publishedEventOf', () => {
  it('names the action and carries the tenant, entity ids, sequence, changes and hash', () => {
    // Prepare
    const event = sealEvent({
      chainId: 'object:c0c0c0c0-0000-4000-8000-000000000000:0b0b0b0b-0000-4000-8000-000000000000',
      sequence: 3,
      prevHash: 'a'.repeat(64),
      action: 'file_upload',
      changes: { file: { from: null, to: { id: 'f1f1f1f1-0000-4000-8000-000000000000', size: 3 } } },
      eventDescription: null,
      performedBy: 'scanner',
      principal: 'apiKey:0123',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    // Act
    const published = publishedEventOf(event);
    // Assess
    expect(published).toEqual({
      type: 'file.uploaded',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: {
        companyId: 'c0c0c0c0-0000-4000-8000-000000000000',
        entity: 'object',
        entityId: '0b0b0b0b-0000-4000-8000-000000000000',
        objectId: '0b0b0b0b-0000-4000-8000-000000000000',
        fileId: 'f1f1f1f1-0000-4000-8000-000000000000',
        sequence: 3,
        action: 'file_upload',
        changes: event.changes,
        eventDescription: null,
        performedBy: 'scanner',
        principal: 'apiKey:0123',
        timestamp: '2026-01-01T00:00:00.000Z',
        hash: event.hash,
        prevHash: 'a'.repeat(64),
      },
    });
  });

  it('maps every ledger action to a dotted type', () => {
    expect(eventTypeOf('object', 'report_stolen')).toBe('object.reported_stolen');
    expect(eventTypeOf('subcategory', 'DEACTIVATE')).toBe('subcategory.deactivated');
    expect(eventTypeOf('object', 'scrapped')).toBe('object.scrapped');
    expect(ALL_EVENT_TYPES).toContain('file.deleted');
  });
});
