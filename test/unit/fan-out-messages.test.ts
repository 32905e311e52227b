/**
 * How the publisher hands a batch of the table stream to the fan-out (`fanOutMessages`): one
 * message per company in that company's own lane, its events in commit order, so that one
 * company's backlog is one lane of the delivery queue and never another company's wait. The
 * whole path (stream, publisher, queue, delivery function, receiver) runs in
 * `test/integration/webhooks-delivery.test.ts`; the figures are in bench/RESULTS.md, section 13.
 */
import { GENESIS_HASH, type LedgerEvent, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { fanOutMessages } from '../../lambdas/domain/webhooks/webhook-deliveries';

const COMPANY_A = 'a0a0a0a0-0000-4000-8000-000000000000';
const COMPANY_B = 'b0b0b0b0-0000-4000-8000-000000000000';

function eventOf(company: string, object: number, sequence: number): LedgerEvent {
  return sealEvent({
    chainId: `object:${company}:0b0b0b0b-0000-4000-8000-${String(object).padStart(12, '0')}`,
    sequence,
    prevHash: GENESIS_HASH,
    action: sequence === 1 ? 'create' : 'update',
    changes: {},
    eventDescription: null,
    performedBy: null,
    principal: 'apiKey:0123',
    timestamp: `2026-01-01T00:00:${String(sequence).padStart(2, '0')}.000Z`,
  });
}

describe('fanOutMessages', () => {
  it("gives each company one message in a lane of its own, with its events in the batch's order", () => {
    // Prepare: A's backlog, with B's one event in the middle of it.
    const batch = [
      ...Array.from({ length: 40 }, (_, index) => eventOf(COMPANY_A, index % 4, 1 + Math.floor(index / 4))),
      eventOf(COMPANY_B, 0, 1),
      ...Array.from({ length: 40 }, (_, index) =>
        eventOf(COMPANY_A, 4 + (index % 4), 1 + Math.floor(index / 4)),
      ),
    ];

    // Act
    const messages = fanOutMessages(batch);

    // Assess
    expect(messages.map((queued) => queued.lane)).toEqual([`fan-out#${COMPANY_A}`, `fan-out#${COMPANY_B}`]);
    const [ofA, ofB] = messages.map((queued) => queued.message);
    expect(ofA).toEqual({
      kind: 'fan-out',
      companyId: COMPANY_A,
      events: batch
        .filter((event) => event.chainId.includes(COMPANY_A))
        .map(({ chainId, sequence }) => ({ chainId, sequence })),
    });
    expect(ofB).toEqual({
      kind: 'fan-out',
      companyId: COMPANY_B,
      events: [{ chainId: batch[40]?.chainId, sequence: 1 }],
    });
  });

  it('gives the same events the same de-duplication id (a batch that comes again), and other events another', () => {
    // Prepare
    const batch = [eventOf(COMPANY_A, 0, 1), eventOf(COMPANY_A, 0, 2)];

    // Act
    const [first] = fanOutMessages(batch);
    const [again] = fanOutMessages(batch);
    const [other] = fanOutMessages(batch.slice(0, 1));

    // Assess
    expect(again?.deduplicationId).toBe(first?.deduplicationId);
    expect(other?.deduplicationId).not.toBe(first?.deduplicationId);
  });

  it('queues nothing for an empty batch', () => {
    expect(fanOutMessages([])).toEqual([]);
  });
});
