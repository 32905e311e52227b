/**
 * One contract, two ledgers: the journal of `LedgerStore` (`lambdas/repositories/ledger-store.ts`)
 * behaves the same on DynamoDB Local (`stored-ledger.ts`) as in memory
 * (`test/support/in-memory-ledger.ts`, which the sequencer's unit tests use): an event appended
 * reads back exactly, windows and whole chains come oldest first, the chain's head follows, and
 * an event that does not follow the head is refused and leaves the chain as it was.
 */
import { randomUUID } from 'node:crypto';
import { GENESIS_HASH, type LedgerEvent, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { type ChainRef, chainIdOf, type LedgerStore } from '../../lambdas/repositories/ledger-store';
import { storedLedger } from '../../lambdas/repositories/stored-ledger';
import { inMemoryLedger } from '../support/in-memory-ledger';

function nextEvent(chain: ChainRef, previous: LedgerEvent | undefined, sequence: number): LedgerEvent {
  return sealEvent({
    chainId: chainIdOf(chain),
    sequence,
    action: sequence === 1 ? 'create' : 'transfer',
    changes: { owner: { from: sequence - 1, to: sequence } },
    eventDescription: null,
    performedBy: null,
    principal: 'apiKey:ledger-store-test',
    timestamp: new Date(Date.parse('2026-01-01T00:00:00.000Z') + sequence).toISOString(),
    prevHash: previous?.hash ?? GENESIS_HASH,
  });
}

describe.each([
  ['stored (DynamoDB Local)', (): LedgerStore => storedLedger],
  ['in memory', (): LedgerStore => inMemoryLedger()],
])('the ledger journal, %s', (_name, ledgerOf) => {
  it('reads back what was appended, oldest first, with the chain head following', async () => {
    // Prepare
    const ledger = ledgerOf();
    const chain: ChainRef = { kind: 'object', tenantId: randomUUID(), entityId: randomUUID() };
    const events: LedgerEvent[] = [];

    // Act
    for (let sequence = 1; sequence <= 3; sequence++) {
      const event = nextEvent(chain, events.at(-1), sequence);
      await ledger.appendEvent(chain, event);
      events.push(event);
    }

    // Assess
    expect(await ledger.journal.readChain(chain)).toEqual(events);
    expect(await ledger.journal.listEvents(chain, 1, 5)).toEqual(events.slice(1));
    expect(await ledger.journal.findEvent(chain, 2)).toEqual(events[1]);
    expect(await ledger.journal.findEvent(chain, 4)).toBeUndefined();
    const heads = await ledger.journal.listChainHeads();
    expect(heads.find((head) => head.chainId === chainIdOf(chain))).toEqual({
      chainId: chainIdOf(chain),
      eventCount: 3,
      lastHash: events[2]?.hash,
    });
  });

  it('refuses an event that does not follow the head, and keeps the chain as it was', async () => {
    // Prepare
    const ledger = ledgerOf();
    const chain: ChainRef = { kind: 'subcategory', tenantId: randomUUID(), entityId: randomUUID() };
    const first = nextEvent(chain, undefined, 1);
    await ledger.appendEvent(chain, first);
    const second = nextEvent(chain, first, 2);
    await ledger.appendEvent(chain, second);

    // Act: linked to the first event, as if the second had not been written.
    const forged = ledger.appendEvent(chain, nextEvent(chain, first, 3));

    // Assess
    await expect(forged).rejects.toThrow(`Event 3 does not follow the head of ${chainIdOf(chain)}`);
    expect(await ledger.journal.readChain(chain)).toEqual([first, second]);
  });
});
