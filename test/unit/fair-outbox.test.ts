/**
 * The sequencer's fair choice of a batch (`lambdas/repositories/fair-outbox.ts`) on the
 * in-memory ledger, whose outbox has the stored one's shards and keys: one company's backlog
 * never holds another company's events for more than a cycle, a cycle takes a bounded number
 * of one company's events (alone or not),
 * each chain's events stay in order with no gap, and `complete` is true only when nothing waits.
 */
import { GENESIS_HASH, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { COMPANY_EVENTS_PER_CYCLE, waterFill } from '../../lambdas/repositories/fair-outbox';
import {
  type ChainRef,
  chainIdOf,
  chainRefOf,
  type OutboxEntry,
} from '../../lambdas/repositories/ledger-store';
import { type InMemoryLedger, inMemoryLedger } from '../support/in-memory-ledger';
import { inMemorySigner } from '../support/ledger-signing';

let clock = Date.parse('2026-01-01T00:00:00.000Z');

/** Appends `count` events to each of `objects` objects of `company`, one round after another. */
async function commit(ledger: InMemoryLedger, company: string, objects: number, count: number) {
  const chains = Array.from(
    { length: objects },
    (_, index): ChainRef => ({
      kind: 'object',
      tenantId: company,
      entityId: `object-${index}`,
    }),
  );
  for (let round = 0; round < count; round++) {
    for (const chain of chains) {
      const events = await ledger.journal.readChain(chain);
      clock += 1;
      await ledger.appendEvent(
        chain,
        sealEvent({
          chainId: chainIdOf(chain),
          sequence: events.length + 1,
          action: events.length === 0 ? 'create' : 'update',
          changes: { name: { from: null, to: `name ${round}` } },
          eventDescription: null,
          performedBy: null,
          principal: 'apiKey:test',
          timestamp: new Date(clock).toISOString(),
          prevHash: events.at(-1)?.hash ?? GENESIS_HASH,
        }),
      );
    }
  }
}

const companyOf = (entry: OutboxEntry) => chainRefOf(entry.chainId).tenantId;

const countByCompany = (entries: readonly OutboxEntry[]) => {
  const counts: Record<string, number> = {};
  for (const entry of entries) counts[companyOf(entry)] = (counts[companyOf(entry)] ?? 0) + 1;
  return counts;
};

describe('water-filling a batch between companies', () => {
  it.each([
    { counts: [3, 4], limit: 10, taken: [3, 4] },
    { counts: [1000, 1], limit: 100, taken: [99, 1] },
    { counts: [5, 5, 5], limit: 10, taken: [4, 3, 3] },
    { counts: [50, 2, 50], limit: 40, taken: [19, 2, 19] },
    { counts: [0, 7], limit: 0, taken: [0, 0] },
  ])('shares $limit among $counts as $taken', ({ counts, limit, taken }) => {
    expect(waterFill(counts, limit)).toEqual(taken);
  });
});

describe('the fair outbox', () => {
  it("takes a company alone its share a cycle (another's event may come meanwhile), and says when nothing is left", async () => {
    // Prepare: 400 events of one company: four shares.
    const ledger = inMemoryLedger();
    await commit(ledger, 'company-a', 40, 10);

    // Act
    const batches: Awaited<ReturnType<typeof ledger.sequencer.readOutbox>>[] = [];
    do {
      const batch = await ledger.sequencer.readOutbox(1000);
      batches.push(batch);
      await ledger.sequencer.removeOutbox(batch.entries);
    } while (!batches.at(-1)?.complete && batches.length < 10);

    // Assess
    expect(batches.map((batch) => batch.entries.length)).toEqual([100, 100, 100, 100]);
    expect(batches.map((batch) => batch.complete)).toEqual([false, false, false, true]);
  });

  it("puts another company's one event in the next batch, however long the backlog before it", async () => {
    // Prepare: company A's 2,000 events, committed before company B's one.
    const ledger = inMemoryLedger();
    await commit(ledger, 'company-a', 100, 20);
    await commit(ledger, 'company-b', 1, 1);

    // Act
    const batch = await ledger.sequencer.readOutbox(1000);

    // Assess
    expect(countByCompany(batch.entries)).toEqual({ 'company-a': COMPANY_EVENTS_PER_CYCLE, 'company-b': 1 });
    expect(batch.complete).toBe(false);
  });

  it("reads past a company's share to the companies after it in the shard's last page", async () => {
    // Prepare: A's backlog a little over its share, so the page that cuts A also holds B.
    const ledger = inMemoryLedger();
    // B's 20 objects: some share A's shard.
    await commit(ledger, 'company-a', 1, COMPANY_EVENTS_PER_CYCLE + 5);
    await commit(ledger, 'company-b', 20, 1);

    // Act
    const batch = await ledger.sequencer.readOutbox(1000);

    // Assess
    expect(countByCompany(batch.entries)).toEqual({ 'company-a': COMPANY_EVENTS_PER_CYCLE, 'company-b': 20 });
  });

  it('shares a batch equally between companies that each wait with more than their share', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    for (const company of ['company-a', 'company-b', 'company-c']) await commit(ledger, company, 30, 10);

    // Act
    const capped = await ledger.sequencer.readOutbox(1000);
    const shared = await ledger.sequencer.readOutbox(150);

    // Assess
    const each = COMPANY_EVENTS_PER_CYCLE;
    expect(countByCompany(capped.entries)).toEqual({
      'company-a': each,
      'company-b': each,
      'company-c': each,
    });
    expect(countByCompany(shared.entries)).toEqual({ 'company-a': 50, 'company-b': 50, 'company-c': 50 });
  });

  it('reaches every company within a few batches when many wait with backlogs (round robin)', async () => {
    // Prepare: 30 companies, each with more than a batch waiting; a batch of 20 takes at most
    // a few companies' shares from each shard.
    const ledger = inMemoryLedger();
    const companies = Array.from({ length: 30 }, (_, index) => `company-${String(index).padStart(2, '0')}`);
    for (const company of companies) await commit(ledger, company, 8, 4);

    // Act: batches taken and removed, as the sequencer does.
    const served = new Set<string>();
    let batches = 0;
    while (served.size < companies.length && batches < 100) {
      const { entries } = await ledger.sequencer.readOutbox(20);
      for (const entry of entries) served.add(companyOf(entry));
      await ledger.sequencer.removeOutbox(entries);
      batches++;
    }

    // Assess: 30 companies × 32 events is 48 batches of 20; all are reached in far fewer.
    expect(served.size).toBe(companies.length);
    expect(batches).toBeLessThanOrEqual(12);
  });

  it("keeps each chain's events in order and without gaps, batch after batch", async () => {
    // Prepare
    const ledger = inMemoryLedger();
    await commit(ledger, 'company-a', 7, 30);
    await commit(ledger, 'company-b', 3, 30);

    // Act
    const taken: OutboxEntry[] = [];
    for (;;) {
      const { entries, complete } = await ledger.sequencer.readOutbox(25);
      taken.push(...entries);
      await ledger.sequencer.removeOutbox(entries);
      if (complete) break;
    }

    // Assess
    expect(taken).toHaveLength(300);
    const next = new Map<string, number>();
    for (const entry of taken) {
      expect(entry.sequence).toBe((next.get(entry.chainId) ?? 0) + 1);
      next.set(entry.chainId, entry.sequence);
    }
  });

  it("integrates company B's event in the first cycle while company A has ten cycles' worth waiting", async () => {
    // Prepare
    const ledger = inMemoryLedger();
    const signer = inMemorySigner();
    await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'o' });
    await commit(ledger, 'company-a', 50, 20);
    await commit(ledger, 'company-b', 1, 1);

    // Act
    const cycle = await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'o' });

    // Assess
    expect(cycle).toMatchObject({ integrated: COMPANY_EVENTS_PER_CYCLE + 1, caughtUp: false });
    expect(
      await ledger.state.findLogIndex(
        chainIdOf({ kind: 'object', tenantId: 'company-b', entityId: 'object-0' }),
        1,
      ),
    ).toBeDefined();
  });
});
