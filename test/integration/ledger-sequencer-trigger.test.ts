/**
 * The sequencer as the table stream starts it, against DynamoDB Local and s3rver: the
 * function's handler, given a batch of outbox records, integrates the whole outbox; runs
 * started at once (one per shard) while events are still being written leave nothing behind
 * and integrate nothing twice; and a run that finds the lease held by a run that already read
 * the outbox still gets its events in, with the real lease (its release, its expiry).
 */
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { drainOutbox, storedSequencerLog } from '../../lambdas/domain/ledger/sequencer-drain';
import { readLease, readLogState } from '../../lambdas/repositories/log-state-repository';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { expectLogMatchesChains, scanAll, writeEvents } from '../support/sequencer-log';

jest.setTimeout(180_000);

const SAVED = ['LEDGER_SIGNING_KEY_FILE', 'LEDGER_LOG_ORIGIN'] as const;
const saved = Object.fromEntries(SAVED.map((name) => [name, process.env[name]]));
let ledger: IsolatedLedger;
let handler: (event?: Partial<DynamoDBStreamEvent>) => Promise<{ batchItemFailures: unknown[] }>;
beforeAll(async () => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined); // the runs' summaries
  ledger = await useIsolatedLedger();
  // The function's environment: the signer's key and origin (its clients read the rest).
  process.env.LEDGER_SIGNING_KEY_FILE = ledger.keyFile;
  process.env.LEDGER_LOG_ORIGIN = ledger.origin;
  ({ handler } = await import('../../lambdas/jobs/sequence-ledger.js'));
});
afterAll(() => {
  jest.restoreAllMocks();
  for (const name of SAVED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  ledger.restore();
});

/** A batch of outbox records as the mapping hands it over (their content is only a signal). */
async function outboxRecords(): Promise<DynamoDBStreamEvent> {
  const items = await scanAll('LOG_OUTBOX#');
  return {
    Records: items.map(
      (item, index) =>
        ({
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            Keys: { pk: { S: item.pk as string }, sk: { S: item.sk as string } },
            SequenceNumber: String(1000 + index),
          },
        }) as DynamoDBRecord,
    ),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sequencer started by outbox records', () => {
  it('integrates the whole outbox, not only the records it was given, and releases the lease', async () => {
    // Prepare
    await writeEvents(2, 2);
    const event = await outboxRecords();
    await writeEvents(1, 1);
    // Act
    const response = await handler({ Records: event.Records.slice(0, 1) });
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    await expectLogMatchesChains();
    expect((await readLease()).expiresAt).toBe(0);
  });

  it('drains the outbox when started by hand, without records', async () => {
    // Prepare
    await writeEvents(1, 2);
    // Act
    const response = await handler({});
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    await expectLogMatchesChains();
  });

  it('leaves nothing behind when runs start at once on several shards while events are written', async () => {
    // Act: four runs at once, twice, during the writes; then one per shard for the last records
    const writing = writeEvents(4, 3);
    const during: Array<Promise<unknown>> = [];
    for (let round = 0; round < 2; round++) {
      await pause(300);
      for (let shard = 0; shard < 4; shard++) during.push(handler(await outboxRecords()));
    }
    await writing;
    const after = await outboxRecords();
    const responses = await Promise.all([...during, handler(after), handler(after), handler(after)]);
    // Assess: no run failed; every event once in the log
    expect(responses.every((response) => JSON.stringify(response) === '{"batchItemFailures":[]}')).toBe(true);
    await expectLogMatchesChains();
  });

  it("integrates an event committed after the lease holder's last read of the outbox", async () => {
    // Prepare: a holder paused in a cycle that read the outbox (empty) before the event
    await writeEvents(1, 0);
    await handler(await outboxRecords());
    let resume: () => void = () => undefined;
    let paused: () => void = () => undefined;
    const readTheOutbox = new Promise<void>((resolve) => {
      paused = resolve;
    });
    const holderLog = storedSequencerLog({
      signer: ledger.signer,
      leaseMs: 25_000,
      afterStep: (step) =>
        step === 'pending'
          ? new Promise<void>((resolve) => {
              resume = resolve;
              paused();
            })
          : undefined,
    });
    const before = await readLogState();
    // An empty outbox with a checkpoint is no cycle at all: give the holder one event to read.
    await writeEvents(1, 0);
    const holder = drainOutbox(holderLog, { leaseRetryMs: 50, runUntil: Date.now() + 60_000 });
    await readTheOutbox;
    const read = (await readLogState()).pending?.entries.length;
    await writeEvents(1, 0); // committed after the holder's read
    const committedAfter = (await scanAll('LOG_OUTBOX#')).length - read!;
    expect(committedAfter).toBeGreaterThan(0);
    // Act: the event's run finds the lease held, then the holder goes on
    const run = drainOutbox(storedSequencerLog({ signer: ledger.signer, leaseMs: 25_000 }), {
      leaseRetryMs: 50,
      runUntil: Date.now() + 60_000,
    });
    await pause(300);
    resume();
    // Assess: the holder integrated only what it read; the run took the rest, with the lease released
    await expect(holder).resolves.toMatchObject({ outcome: 'drained', integrated: read });
    await expect(run).resolves.toMatchObject({ outcome: 'drained', integrated: committedAfter });
    expect((await readLogState()).treeSize).toBe(before.treeSize + read! + committedAfter);
    await expectLogMatchesChains();
  });
});
