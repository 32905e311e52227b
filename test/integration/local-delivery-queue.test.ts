/**
 * Local mode's delivery queue against DynamoDB Local: each company's messages in a partition of
 * their own, sorted by lane; the registry of companies with messages; receipt handles; the move
 * of an earlier version's single partition; and the worker that receives from it. A table of its
 * own, so that no other test file's worker receives these messages.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuedDelivery } from '../../lambdas/repositories/delivery-message';
import {
  delayLocalMessage,
  deleteLocalMessage,
  forgetCompanyIfIdle,
  type LocalQueueMessage,
  laneHeads,
  listQueuedCompanies,
  moveMessagesOfOnePartition,
  sendLocalMessages,
} from '../../lambdas/repositories/local-delivery-queue';
import { localQueueCompanyKeys } from '../../lambdas/repositories/table-keys';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { startDeliveryWorker } from '../../local/webhook-delivery-worker';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { eventually } from '../support/local-server';

let table: IsolatedLedger;

beforeAll(async () => {
  table = await useIsolatedLedger();
});

afterAll(() => table.restore());

/** `count` deliveries of a company, named `<prefix><n>`, each in the lane `lane(n)`. */
function deliveries(
  companyId: string,
  count: number,
  lane: (n: number) => string,
  prefix = 'd',
): QueuedDelivery[] {
  return Array.from({ length: count }, (_, n) => ({
    message: { companyId, webhookId: 'w1', deliveryId: `${prefix}${n}` },
    lane: lane(n),
    deduplicationId: `${companyId}-${prefix}${n}`,
  }));
}

/** Sends in batches of 10, as the SQS emulator hands them over. */
async function send(all: QueuedDelivery[]): Promise<void> {
  for (let start = 0; start < all.length; start += 10) await sendLocalMessages(all.slice(start, start + 10));
}

async function headsOf(companyId: string, afterLane?: string): Promise<LocalQueueMessage[]> {
  const heads: LocalQueueMessage[] = [];
  for await (const head of laneHeads(companyId, afterLane)) heads.push(head);
  return heads;
}

const deliveryIdOf = (message: { body: string }) =>
  (JSON.parse(message.body) as { deliveryId: string }).deliveryId;

const entryOf = async (companyId: string) =>
  (await listQueuedCompanies()).find((company) => company.companyId === companyId);

describe('the local delivery queue', () => {
  it("gives the head of each of a company's lanes, from its own partition, in the order sent", async () => {
    // Prepare
    const busy = randomUUID();
    const quiet = randomUUID();
    await send(deliveries(busy, 250, (n) => `w1#${n % 8}`));
    await send(deliveries(quiet, 3, () => 'w1#0'));

    // Act
    const quietHeads = await headsOf(quiet);
    const busyHeads = await headsOf(busy);
    await deleteLocalMessage((busyHeads[0] as LocalQueueMessage).receiptHandle);
    const afterFirstDelivered = await headsOf(busy);

    // Assert
    expect(quietHeads.map(deliveryIdOf)).toEqual(['d0']);
    expect(busyHeads.map((head) => [head.lane, deliveryIdOf(head)])).toEqual(
      Array.from({ length: 8 }, (_, n) => [`w1#${n}`, `d${n}`]),
    );
    expect(new Set(busyHeads.map((head) => head.companyId))).toEqual(new Set([busy]));
    expect(afterFirstDelivered.map(deliveryIdOf)).toEqual(['d8', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']);
  });

  it('takes the lanes in turn: after the lane last started, then round to it', async () => {
    // Prepare: lanes whose names extend one another, to check where one lane ends.
    const companyId = randomUUID();
    const lanes = ['a', 'a#1', 'a#10', 'b', 'b c'];
    await send(lanes.flatMap((lane, n) => deliveries(companyId, 1, () => lane, `${n}-`)));

    // Act
    const fromStart = await headsOf(companyId);
    const afterA1 = await headsOf(companyId, 'a#1');
    const afterLast = await headsOf(companyId, 'b c');

    // Assert
    expect(fromStart.map((head) => head.lane)).toEqual(lanes);
    expect(afterA1.map((head) => head.lane)).toEqual(['a#10', 'b', 'b c', 'a', 'a#1']);
    expect(afterLast.map((head) => head.lane)).toEqual(lanes);
  });

  it('keeps a company listed if messages were sent since the look, or a send was under way at or since it', async () => {
    // Prepare
    const companyId = randomUUID();
    // What a look passes for an entry it did not read (each entry is asserted read below).
    const unread = { companyId, sendId: 'none', sending: 0 };
    // Moves only a send's count in the registry (a real send also sets a new sendId).
    const countSending = (by: number) =>
      dynamoDb.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: localQueueCompanyKeys.key({ companyId }),
          UpdateExpression: 'ADD sending :by',
          ExpressionAttributeValues: { ':by': by },
        }),
      );
    await send(deliveries(companyId, 1, () => 'w1#0'));
    const seenBeforeSend = await entryOf(companyId);
    for (const head of await headsOf(companyId)) await deleteLocalMessage(head.receiptHandle);
    await send(deliveries(companyId, 1, () => 'w1#0'));

    // Act
    await forgetCompanyIfIdle(seenBeforeSend ?? unread);
    const listedAfterStaleLook = (await entryOf(companyId)) !== undefined;
    for (const head of await headsOf(companyId)) await deleteLocalMessage(head.receiptHandle);
    const seenIdle = await entryOf(companyId);
    // A send under way (or one whose process died half-way) has counted itself in.
    await countSending(1);
    await forgetCompanyIfIdle(seenIdle ?? unread);
    const listedWhileSending = (await entryOf(companyId)) !== undefined;
    // A look that read the entry then, and the partition before the send's messages landed.
    const seenWhileSending = await entryOf(companyId);
    await countSending(-1);
    await forgetCompanyIfIdle(seenWhileSending ?? unread);
    const listedAfterLookDuringSend = (await entryOf(companyId)) !== undefined;
    await forgetCompanyIfIdle(seenIdle ?? unread);

    // Assert
    expect(seenBeforeSend).toBeDefined();
    expect(listedAfterStaleLook).toBe(true);
    expect(listedWhileSending).toBe(true);
    expect(seenWhileSending?.sending).toBe(1);
    expect(listedAfterLookDuringSend).toBe(true);
    expect(await entryOf(companyId)).toBeUndefined();
  });

  it("delays and deletes the message a receipt handle names, whatever the company's id holds", async () => {
    // Prepare
    const companyId = `a/b%c#${randomUUID()}`;
    await send(deliveries(companyId, 2, (n) => `w1#${n}`));
    const [first, second] = (await headsOf(companyId)) as [LocalQueueMessage, LocalQueueMessage];

    // Act
    await delayLocalMessage(first.receiptHandle, 60);
    await deleteLocalMessage(second.receiptHandle);

    // Assert
    const left = await headsOf(companyId);
    expect(left.map(deliveryIdOf)).toEqual(['d0']);
    const [delayed] = left as [LocalQueueMessage];
    expect(delayed.visibleAt).toBeGreaterThan(Date.now() + 50_000);
    expect(delayed.receiveCount).toBe(1);
    await expect(deleteLocalMessage('no-company-in-it')).rejects.toThrow('Not a receipt handle');
  });

  it("moves an earlier version's single partition into the companies' partitions, keeping each message's state", async () => {
    // Prepare: two messages as the earlier version wrote them.
    const companyId = randomUUID();
    const earlier = [
      {
        sk: '2026-11-01T00:00:00.000Z#000001#dedup#1',
        lane: 'w9#3',
        visibleAt: 0,
        receiveCount: 0,
        id: 'old-1',
      },
      {
        sk: '2026-11-01T00:00:00.000Z#000002#dedup#2',
        lane: 'w9#3',
        visibleAt: 4e12,
        receiveCount: 2,
        id: 'old-2',
      },
    ];
    for (const message of earlier) {
      await dynamoDb.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: 'LOCAL#DELIVERY_QUEUE',
            sk: message.sk,
            entity: 'localQueueMessage',
            lane: message.lane,
            body: JSON.stringify({ companyId, webhookId: 'w9', deliveryId: message.id }),
            visibleAt: message.visibleAt,
            receiveCount: message.receiveCount,
          },
        }),
      );
    }
    const listedBeforeMove = (await listQueuedCompanies()).map((company) => company.companyId);

    // Act
    const moved = await moveMessagesOfOnePartition();
    const head = (await headsOf(companyId))[0] as LocalQueueMessage;
    await deleteLocalMessage(head.receiptHandle);
    const next = (await headsOf(companyId))[0] as LocalQueueMessage;

    // Assert
    expect(listedBeforeMove.every((listed) => typeof listed === 'string')).toBe(true);
    expect(moved).toBe(2);
    expect(await moveMessagesOfOnePartition()).toBe(0);
    expect(await entryOf(companyId)).toBeDefined();
    expect([head.lane, deliveryIdOf(head), head.receiveCount]).toEqual(['w9#3', 'old-1', 0]);
    expect([next.lane, deliveryIdOf(next), next.visibleAt, next.receiveCount]).toEqual([
      'w9#3',
      'old-2',
      4e12,
      2,
    ]);
  });
});

describe('the local delivery worker', () => {
  // A table for each test: what one leaves queued is not the next one's.
  let ownTable: IsolatedLedger;

  beforeEach(async () => {
    ownTable = await useIsolatedLedger();
  });

  afterEach(() => ownTable.restore());

  /** A handler that records `<company> <delivery>` for the given companies and holds the lanes given. */
  function recordingHandler(companies: Record<string, string>, heldLanes: string[]) {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    const handler = async (event: SQSEvent) => {
      const [record] = event.Records as [SQSRecord];
      const { companyId } = JSON.parse(record.body) as { companyId: string };
      if (heldLanes.includes(record.attributes.MessageGroupId as string)) await held;
      const name = companies[companyId];
      if (name) handled.push(`${name} ${deliveryIdOf(record)}`);
      return { batchItemFailures: [] };
    };
    return { handler, handled, release: () => release() };
  }

  it("serves a lane behind another lane's backlog of 1,200 messages", async () => {
    // Prepare: the held lane sorts first, its head's delivery hangs.
    const companyId = randomUUID();
    await send(deliveries(companyId, 1_200, () => 'a-held#0'));
    await send(deliveries(companyId, 1, () => 'z-free#0', 'free'));
    const { handler, handled, release } = recordingHandler({ [companyId]: 'A' }, ['a-held#0']);
    const worker = await startDeliveryWorker({ pollIntervalMs: 10, maxInFlightPerCompany: 2, handler });

    try {
      // Act
      const freeDelivered = await eventually(() => handled.includes('A free0'), 10_000);

      // Assert
      expect(freeDelivered).toBe(true);
      expect(handled).toEqual(['A free0']);
    } finally {
      release();
      await worker.stop();
    }
  });

  it('holds a company to its deliveries in flight, serves another company meanwhile, and forgets both when done', async () => {
    // Prepare: company A's two held lanes take its two slots; its third lane must wait.
    const companyA = randomUUID();
    const companyB = randomUUID();
    await send([
      ...deliveries(companyA, 1, () => 'held#0', 'held-0-'),
      ...deliveries(companyA, 1, () => 'held#1', 'held-1-'),
      ...deliveries(companyA, 1, () => 'waiting#0', 'waiting'),
    ]);
    const { handler, handled, release } = recordingHandler({ [companyA]: 'A', [companyB]: 'B' }, [
      'held#0',
      'held#1',
    ]);
    const worker = await startDeliveryWorker({ pollIntervalMs: 10, maxInFlightPerCompany: 2, handler });

    try {
      // Act
      await send(deliveries(companyB, 1, () => 'b#0'));
      const companyBDelivered = await eventually(() => handled.includes('B d0'), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const handledWhileHeld = [...handled];
      release();
      const allDelivered = await eventually(() => handled.length === 4, 10_000);
      const bothForgotten = await eventually(
        async () => (await entryOf(companyA)) === undefined && (await entryOf(companyB)) === undefined,
        10_000,
      );

      // Assert
      expect(companyBDelivered).toBe(true);
      expect(handledWhileHeld).toEqual(['B d0']);
      expect(allDelivered).toBe(true);
      expect(handled.slice(1).sort()).toEqual(['A held-0-0', 'A held-1-0', 'A waiting0']);
      expect(bothForgotten).toBe(true);
    } finally {
      release();
      await worker.stop();
    }
  });

  it('takes up what a delivery queued as it ends, not after its idle pause (a fan-out and its deliveries)', async () => {
    // Prepare: a pause far longer than the wait allowed; the fan-out queues a delivery once the
    // worker has surely looked again and found nothing to start, so that it is in that pause.
    const companyId = randomUUID();
    await send(deliveries(companyId, 1, () => 'fan-out#0', 'fan-out'));
    const handled: string[] = [];
    const handler = async (event: SQSEvent) => {
      const [record] = event.Records as [SQSRecord];
      const name = deliveryIdOf(record);
      if (name === 'fan-out0') {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await send(deliveries(companyId, 1, () => 'object#0', 'queued-by-fan-out'));
      }
      handled.push(name);
      return { batchItemFailures: [] };
    };
    const worker = await startDeliveryWorker({ pollIntervalMs: 60_000, handler });

    try {
      // Act
      const queuedDelivered = await eventually(() => handled.length === 2, 10_000);

      // Assert
      expect(queuedDelivered).toBe(true);
      expect(handled).toEqual(['fan-out0', 'queued-by-fan-out0']);
    } finally {
      await worker.stop();
    }
  });

  it("takes a company's lanes in turn, one delivery each, not the first lane's backlog first", async () => {
    // Prepare: three messages in each of four lanes; one delivery in flight at a time.
    const companyId = randomUUID();
    await send(deliveries(companyId, 12, (n) => `lane#${n % 4}`));
    const { handler, handled, release } = recordingHandler({ [companyId]: 'A' }, []);
    const worker = await startDeliveryWorker({ pollIntervalMs: 10, maxInFlightPerCompany: 1, handler });

    try {
      // Act
      const allDelivered = await eventually(() => handled.length === 12, 20_000);

      // Assert: d0-d3 are the lanes' heads, d4-d7 their second messages.
      expect(allDelivered).toBe(true);
      expect(handled.slice(0, 4).sort()).toEqual(['A d0', 'A d1', 'A d2', 'A d3']);
      expect(handled.slice(4, 8).sort()).toEqual(['A d4', 'A d5', 'A d6', 'A d7']);
    } finally {
      release();
      await worker.stop();
    }
  });
});
