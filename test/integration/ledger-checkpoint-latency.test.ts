/**
 * Locally (`npm start`) a committed event is in a published checkpoint within about 2 s: the
 * local sequencer runs here exactly as `npm start` starts it (`startLocalSequencer()`: the table
 * stream's outbox records start the function's handler; the signer from the environment),
 * against a table and bucket of this test alone, while 20 events are written through the API
 * handlers at uneven pauses, once the sequencer has published its first checkpoints (the
 * setup's events, and one more object). The median must be under 2 s and every event in a
 * checkpoint within 10 s: on a machine loaded several times over (the whole suite on 2 cores)
 * single events have taken 2-8 s, which says more about the machine than about the trigger;
 * a lost trigger (an event left until the next write) or a slow loop fails either way.
 * Each event's time runs from its own `timestamp` (stamped by the handler just before the
 * transaction that commits it, so no later than the commit) to the first moment the published
 * state's tree size is seen to cover its log index: an upper bound of commit → checkpoint.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { findLogIndex, readLogState } from '../../lambdas/repositories/log-state-repository';
import { dynamoDb } from '../../lambdas/shared/clients';
import { type LocalSequencer, startLocalSequencer } from '../../local/local-sequencer';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { companyPrincipal } from '../support/principals';
import { scanAll } from '../support/sequencer-log';

jest.setTimeout(120_000);
// A wall-clock bound on a shared machine: an attempt may miss it while other processes starve
// this one of CPU. A real regression (a lost trigger, a slower cycle) misses it every attempt.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

/** The bound docs/ledger.md promises locally, for the median event. */
const LOCAL_BOUND_MS = 2000;
/** Every event, however loaded the machine. */
const LOADED_MACHINE_BOUND_MS = 10_000;
const OBJECTS = 4;
const UPDATES_EACH = 4;
/** Pauses between writes (ms), uneven so that commits fall at every phase of the sequencer's loop. */
const PAUSES = [0, 170, 40, 260, 90, 310, 10, 130, 220, 60, 280, 30, 190, 110, 0, 240, 70, 150, 300, 20];

const SAVED = ['LEDGER_SIGNING_KEY_FILE', 'LEDGER_LOG_ORIGIN'] as const;
const saved = Object.fromEntries(SAVED.map((name) => [name, process.env[name]]));
let ledger: IsolatedLedger;
let sequencer: LocalSequencer | undefined;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
  // As `npm start` leaves them: the default origin, a key file.
  delete process.env.LEDGER_LOG_ORIGIN;
  process.env.LEDGER_SIGNING_KEY_FILE = ledger.keyFile;
  sequencer = await startLocalSequencer();
});
afterAll(async () => {
  await sequencer?.stop();
  for (const name of SAVED) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  ledger.restore();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Tracked {
  chainId: string;
  sequence: number;
  /** No later than the commit. */
  committedBy: number;
  includedAt?: number;
}

/**
 * Watches the published state (one read every 25 ms, so as not to slow the sequencer down)
 * and, each time its tree size grows or an event is added, which tracked events it covers;
 * until `done()` and every event is covered, or `untilMs`.
 */
async function watch(tracked: Tracked[], done: () => boolean, untilMs: number): Promise<void> {
  let seenSize = -1;
  let seenEvents = 0;
  while (Date.now() < untilMs) {
    const { treeSize } = await readLogState();
    const seenAt = Date.now();
    if (treeSize !== seenSize || tracked.length !== seenEvents) {
      seenSize = treeSize;
      seenEvents = tracked.length;
      for (const event of tracked.filter((each) => each.includedAt === undefined)) {
        const logIndex = await findLogIndex(event.chainId, event.sequence);
        if (logIndex !== undefined && logIndex < treeSize) event.includedAt = seenAt;
      }
    }
    if (done() && tracked.every((event) => event.includedAt !== undefined)) return;
    await pause(25);
  }
}

/** Waits until the outbox is empty and a checkpoint is published. */
async function published(untilMs: number): Promise<void> {
  while (Date.now() < untilMs) {
    const state = await readLogState();
    if (state.checkpoint && !state.pending && (await scanAll('LOG_OUTBOX#')).length === 0) return;
    await pause(50);
  }
  throw new Error('The local sequencer published nothing within 30 s');
}

/** When the handler stamped the event, kept within its request. */
async function committedBy(companyId: string, objectId: string, sequence: number, request: [number, number]) {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: process.env.TABLE_NAME,
      Key: {
        pk: `T#${companyId}#LEDGER#object#${objectId}`,
        sk: `EVENT#${String(sequence).padStart(10, '0')}`,
      },
    }),
  );
  const stamped = Date.parse(Item?.timestamp as string);
  return Math.max(request[0], Math.min(request[1], stamped));
}

describe('the local sequencer', () => {
  it(`publishes committed events in a checkpoint within ${LOCAL_BOUND_MS} ms (the median)`, async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Past its start (first checkpoint, cold code paths): the setup's events and one more published.
    await givenObject(principal, place, { owner: 'Warm-up' });
    await published(Date.now() + 30_000);
    const tracked: Tracked[] = [];
    let writing = true;
    const watching = watch(tracked, () => !writing, Date.now() + 60_000);
    // Act: 20 events, one at a time, at uneven pauses
    let write = 0;
    for (let o = 0; o < OBJECTS; o++) {
      await pause(PAUSES[write++ % PAUSES.length]!);
      const createdAt = Date.now();
      const object = await givenObject(principal, place, { owner: 'Alice' });
      const chainId = `object:${principal.tenantId}:${object.id}`;
      const created = await committedBy(principal.tenantId, object.id, 1, [createdAt, Date.now()]);
      tracked.push({ chainId, sequence: 1, committedBy: created });
      for (let u = 0; u < UPDATES_EACH; u++) {
        await pause(PAUSES[write++ % PAUSES.length]!);
        const requestedAt = Date.now();
        const response = await invoke(updateObject, {
          method: 'PUT',
          path: `/v2/objects/${object.id}`,
          principal,
          pathParameters: { objectId: object.id },
          body: { action: 'transfer', owner: `Owner ${u}` },
        });
        expect(response.statusCode).toBe(200);
        const request: [number, number] = [requestedAt, Date.now()];
        tracked.push({
          chainId,
          sequence: u + 2,
          committedBy: await committedBy(principal.tenantId, object.id, u + 2, request),
        });
      }
    }
    writing = false;
    await watching;
    // Assess: all 20 in a published checkpoint, none later than the bound
    expect(tracked).toHaveLength(OBJECTS * (1 + UPDATES_EACH));
    const latencies = tracked.map(
      (event) => (event.includedAt ?? Number.POSITIVE_INFINITY) - event.committedBy,
    );
    const sorted = [...latencies].sort((left, right) => left - right);
    console.info(
      `commit → checkpoint (ms): median ${sorted[sorted.length >> 1]}, max ${sorted.at(-1)}; ${latencies.join(' ')}`,
    );
    expect(latencies.filter((latency) => !(latency < LOADED_MACHINE_BOUND_MS))).toEqual([]);
    expect(sorted[sorted.length >> 1]).toBeLessThan(LOCAL_BOUND_MS);
  });
});
