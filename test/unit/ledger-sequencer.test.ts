/**
 * The sequencer against the in-memory ledger (`test/support/in-memory-ledger.ts`), the checks
 * `test/integration/ledger-sequencer.test.ts` makes against DynamoDB Local and s3rver, in
 * milliseconds: every committed event gets one log index, in commit order; the chains keep their
 * hash links; each checkpoint is signed, verifies, commits to the tiles' root and is consistent
 * with the one before; a sequencer that dies after any step is followed by one that loses and
 * doubles nothing. Offline: no network, no DynamoDB, no S3.
 */
import { verifyChain } from '../../lambdas/domain/ledger/chain-verification';
import { GENESIS_HASH, type LedgerEvent, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { decodeEntryBundle, hashesFromTiles, tileHashes } from '../../lambdas/domain/ledger/log-tiles';
import { leafHashOf, TILE_WIDTH, treeRoot } from '../../lambdas/domain/ledger/log-tree';
import {
  InconsistentLogError,
  runSequencerCycle,
  SEQUENCER_STEPS,
} from '../../lambdas/domain/ledger/sequencer';
import { drainOutbox, storedSequencerLog } from '../../lambdas/domain/ledger/sequencer-drain';
import { type ChainRef, chainIdOf } from '../../lambdas/repositories/ledger-store';
import { verifyCheckpoint } from '../../verifier/index';
import { type InMemoryLedger, inMemoryLedger } from '../support/in-memory-ledger';
import { inMemorySigner } from '../support/ledger-signing';

let clock = Date.parse('2026-01-01T00:00:00.000Z');
/** The next event of a chain, linked to its head. */
async function appendNext(ledger: InMemoryLedger, chain: ChainRef): Promise<LedgerEvent> {
  const events = await ledger.journal.readChain(chain);
  clock += 1;
  const event = sealEvent({
    chainId: chainIdOf(chain),
    sequence: events.length + 1,
    action: events.length === 0 ? 'create' : 'transfer',
    changes: { owner: { from: events.length, to: events.length + 1 } },
    eventDescription: null,
    performedBy: null,
    principal: 'apiKey:test',
    timestamp: new Date(clock).toISOString(),
    prevHash: events.at(-1)?.hash ?? GENESIS_HASH,
  });
  await ledger.appendEvent(chain, event);
  return event;
}

/** `chains` chains of `eventsEach` events, appended round by round (commits interleave). */
async function writeEvents(ledger: InMemoryLedger, chains: number, eventsEach: number): Promise<ChainRef[]> {
  const refs = Array.from(
    { length: chains },
    (_, index): ChainRef => ({
      kind: 'object',
      tenantId: 'company-1',
      entityId: `object-${ledger.chains.size}-${index}-${clock}`,
    }),
  );
  for (let round = 0; round < eventsEach; round++) for (const chain of refs) await appendNext(ledger, chain);
  return refs;
}

/** Every event of every chain is in the log once, at its position, under a checkpoint that verifies. */
async function expectLogMatchesChains(ledger: InMemoryLedger) {
  const state = await ledger.state.read();
  const events = [...ledger.chains.values()].flat();
  expect(await ledger.sequencer.readOutbox(Number.MAX_SAFE_INTEGER)).toEqual({ entries: [], complete: true });
  expect(state.pending).toBeUndefined();
  expect(state.treeSize).toBe(events.length);
  expect(new Set(ledger.positions.values()).size).toBe(events.length);
  const entries: Buffer[] = [];
  const leaves: Buffer[] = [];
  for (let tile = 0; tile * TILE_WIDTH < state.treeSize; tile++) {
    const width = Math.min(TILE_WIDTH, state.treeSize - tile * TILE_WIDTH);
    entries.push(
      ...decodeEntryBundle((await ledger.files.readTile({ level: 'entries', index: tile, width }))!),
    );
    leaves.push(...tileHashes((await ledger.files.readTile({ level: 0, index: tile, width }))!));
  }
  for (const event of events) {
    const logIndex = await ledger.state.findLogIndex(event.chainId, event.sequence);
    expect(entries[logIndex!]?.toString('hex')).toBe(event.hash);
    expect(leaves[logIndex!]).toEqual(leafHashOf(Buffer.from(event.hash, 'hex')));
  }
  const root = await treeRoot(hashesFromTiles(ledger.files.readTile, state.treeSize), state.treeSize);
  expect(root.toString('hex')).toBe(state.rootHash);
  expect(await verifyCheckpoint(state.checkpoint!, state.verifierKey!)).toMatchObject({
    ok: true,
    treeSize: state.treeSize,
    rootHash: state.rootHash,
  });
}

const signer = inMemorySigner();

describe('the sequencer on the in-memory ledger', () => {
  it('publishes a signed checkpoint of the empty log, then gives each event the next log index in commit order', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    const first = await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a' });
    const chains = await writeEvents(ledger, 3, 2);

    // Act
    const result = await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a' });

    // Assess
    expect(first).toMatchObject({ leased: true, integrated: 0, treeSize: 0 });
    expect(result).toEqual({ leased: true, integrated: 6, treeSize: 6, caughtUp: true });
    // Round by round: chain 0's first event, chain 1's, chain 2's, then the second round.
    const indexes = await Promise.all(
      [1, 2].flatMap((sequence) =>
        chains.map((chain) => ledger.state.findLogIndex(chainIdOf(chain), sequence)),
      ),
    );
    expect(indexes).toEqual([0, 1, 2, 3, 4, 5]);
    await expectLogMatchesChains(ledger);
  });

  it('keeps each chain linked by hash, and refuses an event that does not follow its head', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    const [chain] = await writeEvents(ledger, 1, 3);
    const events = await ledger.journal.readChain(chain!);
    const forged = sealEvent({ ...events[2]!, sequence: 4, prevHash: events[1]!.hash });

    // Act
    const refused = ledger.appendEvent(chain!, forged);

    // Assess
    await expect(refused).rejects.toThrow('does not follow the head');
    expect(
      verifyChain(events, { eventCount: 3, firstTxId: events[0]!.hash, lastTxId: events[2]!.hash }),
    ).toMatchObject({
      valid: true,
      problems: [],
    });
    expect(events.map((event) => event.prevHash)).toEqual([GENESIS_HASH, events[0]!.hash, events[1]!.hash]);
  });

  it('spreads batches over full and partial tiles, each checkpoint consistent with the one before', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    await writeEvents(ledger, 30, 9);

    // Act: 270 events, in batches that end mid-tile and cross the first full tile.
    const sizes: number[] = [];
    for (let cycle = 0; cycle < 4; cycle++) {
      sizes.push(
        (await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a', batchSize: 100 })).treeSize,
      );
    }

    // Assess
    expect(sizes).toEqual([100, 200, 270, 270]);
    expect(await ledger.files.readCheckpoint(200)).toBeDefined();
    expect(ledger.stored.has('tile/0/000')).toBe(true); // the first full tile
    await expectLogMatchesChains(ledger);
  });

  it('publishes nothing when a stored tile no longer gives the published root', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    await writeEvents(ledger, 2, 2);
    await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a' });
    const before = await ledger.state.read();
    const tampered = Buffer.from(ledger.stored.get('tile/0/000.p/4')!);
    tampered[0] = (tampered[0] ?? 0) ^ 0xff;
    ledger.stored.set('tile/0/000.p/4', tampered);
    await writeEvents(ledger, 1, 1);

    // Act
    const cycle = runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a' });

    // Assess
    await expect(cycle).rejects.toThrow(InconsistentLogError);
    expect((await ledger.state.read()).checkpoint).toBe(before.checkpoint);
  });

  it.each(SEQUENCER_STEPS)(
    'loses and doubles nothing when the sequencer dies after %s',
    async (crashAfter) => {
      // Prepare
      const ledger = inMemoryLedger();
      await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'a' });
      await ledger.sequencer.releaseLease('a');
      await writeEvents(ledger, 2, 3);
      class Crash extends Error {}
      await expect(
        runSequencerCycle({
          signer,
          store: ledger.sequencer,
          owner: 'crashing',
          leaseMs: 1,
          afterStep: (step) => {
            if (step === crashAfter) throw new Crash();
          },
        }),
      ).rejects.toThrow(Crash);
      await new Promise((resolve) => setTimeout(resolve, 5)); // the crashed lease runs out

      // Act
      await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'next' });
      await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'next' });

      // Assess
      await expectLogMatchesChains(ledger);
    },
  );

  it('drains the whole outbox in one run, and a second run finds nothing to do', async () => {
    // Prepare
    const ledger = inMemoryLedger();
    await writeEvents(ledger, 5, 5);
    const log = storedSequencerLog({ signer, store: ledger.sequencer, leaseMs: 1000, batchSize: 10 });

    // Act
    const drained = await drainOutbox(log, { leaseRetryMs: 1, runUntil: Date.now() + 10_000 });
    const again = await drainOutbox(log, { leaseRetryMs: 1, runUntil: Date.now() + 10_000 });

    // Assess
    expect(drained).toMatchObject({ outcome: 'drained', integrated: 25, treeSize: 25 });
    expect(again).toMatchObject({ outcome: 'drained', integrated: 0 });
    expect((await ledger.sequencer.readLease()).expiresAt).toBe(0);
    await expectLogMatchesChains(ledger);
  });
});
