/**
 * Local mode's delivery queue against DynamoDB Local: each company's messages in a partition of
 * their own, the registry of companies with messages, receipt handles, and the worker that
 * receives from it. A table of its own, so that no other test file's worker receives these
 * messages.
 */
import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueuedDelivery } from '../../lambdas/repositories/delivery-message';
import {
  companyMessages,
  delayLocalMessage,
  deleteLocalMessage,
  forgetCompanyIfIdle,
  type LocalQueueMessage,
  listQueuedCompanies,
  sendLocalMessages,
} from '../../lambdas/repositories/local-delivery-queue';
import { startDeliveryWorker } from '../../local/webhook-delivery-worker';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { eventually } from '../support/local-server';

let table: IsolatedLedger;

beforeAll(async () => {
  table = await useIsolatedLedger();
});

afterAll(() => table.restore());

/** `count` deliveries of a company, in one lane or spread over `lanes`. */
function deliveries(companyId: string, count: number, lane: (n: number) => string): QueuedDelivery[] {
  return Array.from({ length: count }, (_, n) => ({
    message: { companyId, webhookId: 'w1', deliveryId: `d${n}` },
    lane: lane(n),
    deduplicationId: `${companyId}-${n}`,
  }));
}

async function messagesOf(companyId: string): Promise<LocalQueueMessage[]> {
  const messages: LocalQueueMessage[] = [];
  for await (const message of companyMessages(companyId)) messages.push(message);
  return messages;
}

const deliveryIdOf = (message: { body: string }) =>
  (JSON.parse(message.body) as { deliveryId: string }).deliveryId;

async function isListed(companyId: string): Promise<boolean> {
  return (await listQueuedCompanies()).some((company) => company.companyId === companyId);
}

describe('the local delivery queue', () => {
  it("reads a company's messages oldest first, from its own partition only", async () => {
    // Prepare
    const busy = randomUUID();
    const quiet = randomUUID();
    await sendLocalMessages(deliveries(busy, 250, (n) => `w1#${n % 8}`));
    await sendLocalMessages(deliveries(quiet, 3, () => 'w1#0'));

    // Act
    const quietMessages = await messagesOf(quiet);
    const busyMessages = await messagesOf(busy);

    // Assert
    expect(quietMessages.map(deliveryIdOf)).toEqual(['d0', 'd1', 'd2']);
    expect(busyMessages.map(deliveryIdOf)).toEqual(Array.from({ length: 250 }, (_, n) => `d${n}`));
    expect(new Set(busyMessages.map((message) => message.companyId))).toEqual(new Set([busy]));
  });

  it('lists a company while it has messages, and takes it off only if nothing was sent since the look', async () => {
    // Prepare
    const companyId = randomUUID();
    await sendLocalMessages(deliveries(companyId, 1, () => 'w1#0'));
    const [first] = (await messagesOf(companyId)) as [LocalQueueMessage];
    const seenBeforeSend = (await listQueuedCompanies()).find((company) => company.companyId === companyId);
    await deleteLocalMessage(first.receiptHandle);
    await sendLocalMessages(deliveries(companyId, 1, () => 'w1#0'));

    // Act
    await forgetCompanyIfIdle(seenBeforeSend ?? { companyId, sendId: 'none' });
    const listedAfterStaleForget = await isListed(companyId);
    const seenNow = (await listQueuedCompanies()).find((company) => company.companyId === companyId);
    for (const message of await messagesOf(companyId)) await deleteLocalMessage(message.receiptHandle);
    await forgetCompanyIfIdle(seenNow ?? { companyId, sendId: 'none' });

    // Assert
    expect(seenBeforeSend).toBeDefined();
    expect(listedAfterStaleForget).toBe(true);
    expect(await isListed(companyId)).toBe(false);
  });

  it("delays and deletes the message a receipt handle names, whatever the company's id holds", async () => {
    // Prepare
    const companyId = `a/b%c#${randomUUID()}`;
    await sendLocalMessages(deliveries(companyId, 2, (n) => `w1#${n}`));
    const [first, second] = (await messagesOf(companyId)) as [LocalQueueMessage, LocalQueueMessage];

    // Act
    await delayLocalMessage(first.receiptHandle, 60);
    await deleteLocalMessage(second.receiptHandle);

    // Assert
    const left = await messagesOf(companyId);
    expect(left.map(deliveryIdOf)).toEqual(['d0']);
    const [delayed] = left as [LocalQueueMessage];
    expect(delayed.visibleAt).toBeGreaterThan(Date.now() + 50_000);
    expect(delayed.receiveCount).toBe(1);
  });
});

describe('the local delivery worker', () => {
  it("delivers another lane past a held lane's backlog, and another company while one company's slots are held", async () => {
    // Prepare: company A's first 150 messages share a lane whose delivery hangs; its 151st is
    // in a lane of its own, beyond the first read of 100. Company B has one message.
    const companyA = randomUUID();
    const companyB = randomUUID();
    await sendLocalMessages(deliveries(companyA, 150, () => 'held#0'));
    await sendLocalMessages([
      {
        message: { companyId: companyA, webhookId: 'w2', deliveryId: 'free' },
        lane: 'free#0',
        deduplicationId: 'free',
      },
    ]);
    let releaseHeld: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve;
    });
    const handled: string[] = [];
    const handler = async (event: SQSEvent) => {
      const [record] = event.Records as [SQSRecord];
      if (record.attributes.MessageGroupId === 'held#0') await held;
      const { companyId } = JSON.parse(record.body) as { companyId: string };
      // The earlier tests' messages are in the queue too.
      if (companyId === companyA) handled.push(`A ${deliveryIdOf(record)}`);
      if (companyId === companyB) handled.push(`B ${deliveryIdOf(record)}`);
      return { batchItemFailures: [] };
    };
    const worker = await startDeliveryWorker({ pollIntervalMs: 10, maxInFlightPerCompany: 2, handler });

    try {
      // Act
      const freeLaneDelivered = await eventually(() => handled.includes('A free'), 10_000);
      await sendLocalMessages(deliveries(companyB, 1, () => 'b#0'));
      const companyBDelivered = await eventually(() => handled.includes('B d0'), 10_000);
      const handledWhileHeld = [...handled];
      releaseHeld();
      const allDelivered = await eventually(async () => (await messagesOf(companyA)).length === 0, 60_000);
      const bothForgotten = await eventually(
        async () => !(await isListed(companyA)) && !(await isListed(companyB)),
        10_000,
      );

      // Assert
      expect(freeLaneDelivered).toBe(true);
      expect(companyBDelivered).toBe(true);
      expect(handledWhileHeld).toEqual(['A free', 'B d0']);
      expect(allDelivered).toBe(true);
      expect(bothForgotten).toBe(true);
    } finally {
      releaseHeld();
      await worker.stop();
    }
  });
});
