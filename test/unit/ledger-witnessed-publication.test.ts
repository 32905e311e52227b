/**
 * Publication under a witness policy, against the in-memory ledger and witnesses that answer
 * through `fetch` functions (`test/support/test-witness.ts`, written from C2SP tlog-witness):
 * the log keeps integrating while publication waits for the quorum; the published checkpoint is
 * one note with the log's signature and the cosignatures; a witness down stops publication under
 * 2-of-2 and not under 1-of-2; publication resumes when it comes back, by a cycle that finds
 * nothing new; a witness's 409 is recovered; the old size each witness gets is the one it holds.
 * Offline: no network, no DynamoDB, no S3.
 */
import { GENESIS_HASH, sealEvent } from '../../lambdas/domain/ledger/ledger-event';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { drainOutbox, storedSequencerLog } from '../../lambdas/domain/ledger/sequencer-drain';
import { checkWitnessPolicy, type Witnessing } from '../../lambdas/domain/ledger/witness-config';
import { type ChainRef, chainIdOf } from '../../lambdas/repositories/ledger-store';
import {
  formatVerifierKey,
  openNote,
  parseVerifierKey,
  verifyWitnessedCheckpoint,
} from '../../verifier/index';
import { type InMemoryLedger, inMemoryLedger } from '../support/in-memory-ledger';
import { inMemorySigner } from '../support/ledger-signing';
import { type TestWitness, testWitness } from '../support/test-witness';

let clock = Date.parse('2026-01-01T00:00:00.000Z');

async function writeEvents(ledger: InMemoryLedger, count: number): Promise<void> {
  const chain: ChainRef = { kind: 'object', tenantId: 'company-1', entityId: `object-${clock}` };
  for (let sequence = 1; sequence <= count; sequence++) {
    clock += 1;
    const events = await ledger.journal.readChain(chain);
    await ledger.appendEvent(
      chain,
      sealEvent({
        chainId: chainIdOf(chain),
        sequence,
        action: sequence === 1 ? 'create' : 'transfer',
        changes: { owner: { from: sequence - 1, to: sequence } },
        eventDescription: null,
        performedBy: null,
        principal: 'apiKey:test',
        timestamp: new Date(clock).toISOString(),
        prevHash: events.at(-1)?.hash ?? GENESIS_HASH,
      }),
    );
  }
}

async function givenWitnessedLog(quorum: '2-of-2' | '1-of-2') {
  const ledger = inMemoryLedger();
  const signer = inMemorySigner();
  const logKey = await formatVerifierKey(signer.keyName, await signer.publicKey());
  const witnesses = [
    testWitness('w1.example', 'http://w1.example', logKey),
    testWitness('w2.example', 'http://w2.example', logKey),
  ];
  const policyText = [
    `log ${logKey}`,
    ...(await Promise.all(witnesses.map(async (w, i) => `witness W${i + 1} ${await w.vkey()} ${w.url}`))),
    `group witnesses ${quorum === '2-of-2' ? 'all' : 'any'} W1 W2`,
    'quorum witnesses',
  ].join('\n');
  const policy = await checkWitnessPolicy(policyText, logKey);
  /** Requests sent to each witness, by URL, answered or not. */
  const requests = new Map<string, number>();
  const route: typeof fetch = (input, init) => {
    const witness = witnesses.find((w) => String(input).startsWith(w.url)) as TestWitness;
    requests.set(witness.url, (requests.get(witness.url) ?? 0) + 1);
    return witness.fetch(input, init);
  };
  const witnessing: Witnessing = { policy, timeoutMs: 500, fetch: route, restMs: 200 };
  const cycle = () =>
    runSequencerCycle({ signer, store: ledger.sequencer, owner: 'test', leaseMs: 10_000, witnessing });
  const requestsTo = (witness: TestWitness) => requests.get(witness.url) ?? 0;
  return { ledger, signer, logKey, witnesses, policy, witnessing, cycle, requestsTo };
}

describe('a log under a 2-of-2 witness policy', () => {
  it('publishes a checkpoint only once both witnesses cosigned it, as one note', async () => {
    const { ledger, logKey, witnesses, policy, cycle } = await givenWitnessedLog('2-of-2');
    await writeEvents(ledger, 3);
    expect(await cycle()).toMatchObject({ integrated: 3, treeSize: 3, caughtUp: true });
    const state = await ledger.state.read();
    expect(state.published?.treeSize).toBe(3);
    const note = state.published!.checkpoint;
    expect(note.startsWith(state.checkpoint!)).toBe(true);
    expect(note.split('\n').filter((line) => line.startsWith('\u2014 '))).toHaveLength(3);
    const verdict = await verifyWitnessedCheckpoint(note, policy);
    expect(verdict).toMatchObject({ ok: true, cosigned: ['W1', 'W2'], treeSize: 3 });
    // A signed-note reader with only the log's key opens it too.
    await expect(openNote(note, await parseVerifierKey(logKey))).resolves.toBeDefined();
    expect(ledger.stored.get('checkpoints/3')?.toString()).toBe(note);
    expect(witnesses.map((w) => w.state.size)).toEqual([3, 3]);
    expect(state.witnessSizes).toEqual({ W1: 3, W2: 3 });
  });

  it('keeps integrating while a witness is down, publishes nothing new, and resumes when it is back', async () => {
    const { ledger, witnesses, cycle, requestsTo } = await givenWitnessedLog('2-of-2');
    await writeEvents(ledger, 2);
    await cycle();
    const [w1, w2] = witnesses as [TestWitness, TestWitness];
    w2.down = true;
    await writeEvents(ledger, 3);
    expect(await cycle()).toMatchObject({ integrated: 3, treeSize: 5, awaitingWitnesses: true });
    let state = await ledger.state.read();
    expect(state.treeSize).toBe(5);
    expect(state.published?.treeSize).toBe(2);
    // The size signed but not witnessed has no checkpoint file.
    expect(ledger.stored.has('checkpoints/5')).toBe(false);
    expect(w1.state.size).toBe(5);
    expect(state.witnessSizes).toEqual({ W1: 5, W2: 2 });
    // More events while it is down: integrated, consistent with the integrated head, not
    // published; the quorum needs it, so it is asked every cycle.
    const asked = requestsTo(w2);
    await writeEvents(ledger, 2);
    expect(await cycle()).toMatchObject({ integrated: 2, treeSize: 7, awaitingWitnesses: true });
    expect(requestsTo(w2)).toBe(asked + 1);
    expect((await ledger.state.read()).published?.treeSize).toBe(2);
    // Back: a cycle with nothing new asks again and publishes, w2 proven from the size it holds.
    w2.down = false;
    expect(await cycle()).toEqual({ leased: true, integrated: 0, treeSize: 7, caughtUp: true });
    state = await ledger.state.read();
    expect(state.published?.treeSize).toBe(7);
    expect(w1.oldSizes.at(-1)).toBe(7);
    expect(w2.oldSizes.at(-1)).toBe(2);
    expect(w2.state.size).toBe(7);
    // Nothing left to do: no witness is asked again.
    const answered = w1.oldSizes.length;
    expect(await cycle()).toEqual({ leased: true, integrated: 0, treeSize: 7, caughtUp: true });
    expect(w1.oldSizes.length).toBe(answered);
  });

  it('recovers from a 409: a witness that holds another size than the log knows', async () => {
    const { ledger, witnesses, cycle } = await givenWitnessedLog('2-of-2');
    await writeEvents(ledger, 4);
    await cycle();
    const [w1] = witnesses as [TestWitness, TestWitness];
    // The log's record of W1's size is lost: it asks with old 0, W1 answers 409 with 4.
    const state = await ledger.state.read();
    await ledger.sequencer.recordWitnessing('test', { ...state.witnessSizes, W1: 0 }, undefined);
    await writeEvents(ledger, 2);
    expect(await cycle()).toMatchObject({ treeSize: 6 });
    expect(w1.oldSizes.slice(-2)).toEqual([0, 4]);
    expect((await ledger.state.read()).published?.treeSize).toBe(6);
  });

  it('drains while a witness is down until its time is spent, and ends drained once it is back', async () => {
    const { ledger, signer, witnesses, witnessing } = await givenWitnessedLog('2-of-2');
    const log = storedSequencerLog({ signer, store: ledger.sequencer, leaseMs: 10_000, witnessing });
    const w2 = witnesses[1] as TestWitness;
    w2.down = true;
    await writeEvents(ledger, 2);
    const spent = await drainOutbox(log, {
      leaseRetryMs: 10,
      witnessRetryMs: 20,
      runUntil: Date.now() + 200,
    });
    expect(spent).toMatchObject({ outcome: 'out-of-time', integrated: 2, awaitingWitnesses: true });
    expect(spent.cycles).toBeGreaterThan(2);
    expect((await ledger.state.read()).published).toBeUndefined();
    setTimeout(() => {
      w2.down = false;
    }, 100);
    const resumed = await drainOutbox(log, {
      leaseRetryMs: 10,
      witnessRetryMs: 20,
      runUntil: Date.now() + 5000,
    });
    expect(resumed).toMatchObject({ outcome: 'drained', awaitingWitnesses: false });
    expect((await ledger.state.read()).published?.treeSize).toBe(2);
  });
});

describe('a sequencer killed under a witness policy', () => {
  it.each(['tiles', 'checkpoint-files', 'commit', 'outbox-deleted'] as const)(
    'after %s is followed by one that integrates the batch once and publishes it',
    async (killedAfter) => {
      const { ledger, signer, witnessing, policy } = await givenWitnessedLog('2-of-2');
      await writeEvents(ledger, 3);
      const killed = runSequencerCycle({
        signer,
        store: ledger.sequencer,
        owner: 'killed',
        leaseMs: 1,
        witnessing,
        afterStep: (step) => {
          if (step === killedAfter) throw new Error('killed');
        },
      });
      await expect(killed).rejects.toThrow('killed');
      expect((await ledger.state.read()).published).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 5));
      let result: Awaited<ReturnType<typeof runSequencerCycle>>;
      do result = await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'next', witnessing });
      while (!result.caughtUp);
      const state = await ledger.state.read();
      expect(state.treeSize).toBe(3);
      expect(new Set(ledger.positions.values())).toEqual(new Set([0, 1, 2]));
      expect(state.published?.treeSize).toBe(3);
      expect(await verifyWitnessedCheckpoint(state.published!.checkpoint, policy)).toMatchObject({
        ok: true,
      });
    },
  );
});

describe('a log under a 1-of-2 witness policy', () => {
  it('publishes with one witness down, carrying the one cosignature', async () => {
    const { ledger, witnesses, policy, cycle } = await givenWitnessedLog('1-of-2');
    (witnesses[0] as TestWitness).down = true;
    await writeEvents(ledger, 3);
    expect(await cycle()).toEqual({ leased: true, integrated: 3, treeSize: 3, caughtUp: true });
    const note = (await ledger.state.read()).published!.checkpoint;
    expect(await verifyWitnessedCheckpoint(note, policy)).toMatchObject({ ok: true, cosigned: ['W2'] });
  });

  it('leaves a witness that was unreachable out for a while, while the other meets the quorum', async () => {
    const { ledger, witnesses, cycle, requestsTo } = await givenWitnessedLog('1-of-2');
    const [w1, w2] = witnesses as [TestWitness, TestWitness];
    w1.down = true;
    await writeEvents(ledger, 1);
    await cycle();
    expect([requestsTo(w1), requestsTo(w2)]).toEqual([1, 1]);
    await writeEvents(ledger, 1);
    expect(await cycle()).not.toHaveProperty('awaitingWitnesses');
    expect([requestsTo(w1), requestsTo(w2)]).toEqual([1, 2]);
    // Its rest over (200 ms here, 30 s by default), it is asked again.
    await new Promise((resolve) => setTimeout(resolve, 250));
    w1.down = false;
    await writeEvents(ledger, 1);
    await cycle();
    expect([requestsTo(w1), requestsTo(w2)]).toEqual([2, 3]);
    expect(w1.state.size).toBe(3);
    expect((await ledger.state.read()).published?.treeSize).toBe(3);
  });

  it('stops publication when both are down', async () => {
    const { ledger, witnesses, cycle } = await givenWitnessedLog('1-of-2');
    for (const witness of witnesses) witness.down = true;
    await writeEvents(ledger, 1);
    expect(await cycle()).toMatchObject({ treeSize: 1, awaitingWitnesses: true });
    expect((await ledger.state.read()).published).toBeUndefined();
  });
});

describe('the policy a log follows', () => {
  it('must name this log when it names logs, and be able to meet its quorum with witnesses it can call', async () => {
    const { logKey, witnesses } = await givenWitnessedLog('2-of-2');
    const other = await formatVerifierKey('other.example/log', await inMemorySigner().publicKey());
    const w1 = `witness W1 ${await (witnesses[0] as TestWitness).vkey()} http://w1.example`;
    const w2NoUrl = `witness W2 ${await (witnesses[1] as TestWitness).vkey()}`;
    await expect(checkWitnessPolicy(`log ${other}\n${w1}\nquorum W1\n`, logKey)).rejects.toThrow(
      /names logs, but not this one/,
    );
    await expect(
      checkWitnessPolicy(`${w1}\n${w2NoUrl}\ngroup g all W1 W2\nquorum g\n`, logKey),
    ).rejects.toThrow(/cannot meet the quorum g/);
    await expect(checkWitnessPolicy(`${w2NoUrl}\nquorum W2\n`)).rejects.toThrow(/no witness with a URL/);
    await expect(checkWitnessPolicy(`${w1}\nquorum W3\n`)).rejects.toThrow(
      /policy is invalid: policy line 2/,
    );
    await expect(checkWitnessPolicy(`${w1}\nquorum W1\n`, logKey)).resolves.toMatchObject({ quorum: 'W1' });
  });
});

describe('a log without a policy', () => {
  it('publishes each checkpoint as signed', async () => {
    const ledger = inMemoryLedger();
    const signer = inMemorySigner();
    await writeEvents(ledger, 2);
    await runSequencerCycle({ signer, store: ledger.sequencer, owner: 'test' });
    const state = await ledger.state.read();
    expect(state.published).toEqual({ treeSize: 2, checkpoint: state.checkpoint });
    expect(ledger.stored.get('checkpoints/2')?.toString()).toBe(state.checkpoint);
  });
});
