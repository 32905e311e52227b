/**
 * Local mode's stand-in for the SQS FIFO queue: messages are items of the table, so they survive
 * a restart of `npm start` with the rest of the data. Same semantics as a FIFO queue where it
 * matters: messages of a lane (message group) are handed out one at a time in the order sent, a
 * delayed message holds back its lane and no other, and a message stays until it is deleted.
 * `local/webhook-delivery-worker.ts` receives from it.
 *
 * Each company's messages are a partition of their own (`localQueueMessageKeys`), sorted by lane,
 * listed in the queue's registry of companies (`localQueueCompanyKeys`). A look reads the head of
 * each lane it needs, one small Query each, so that it costs the same whether a company has ten
 * messages queued or a hundred thousand, and whatever another company has.
 */

import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import type { QueuedDelivery } from './delivery-message.js';
import { queryAllPages } from './query-pages.js';
import { localQueueCompanyKeys, localQueueMessageKeys } from './table-keys.js';

export interface LocalQueueMessage {
  /** The receipt handle: names the company's partition and the item's sort key. */
  receiptHandle: string;
  companyId: string;
  lane: string;
  body: string;
  /** Epoch milliseconds from which it may be received. */
  visibleAt: number;
  receiveCount: number;
}

/** A company in the registry, as read: `sendId` tells whether messages were sent since. */
export interface QueuedCompany {
  companyId: string;
  sendId: string;
  /** Sends under way when it was read: their messages may not be in the partition yet. */
  sending: number;
}

const REGISTRY_PARTITION = localQueueCompanyKeys.partition({});
const REGISTRY_ENTRY = localQueueCompanyKeys.sortKeyPrefix({});

/** A lane as its messages' sort keys begin: URI-encoded, so that it holds no space or `!`. */
const lanePart = (lane: string) => encodeURIComponent(lane);

/** Sorts above every sort key of `lane` (`<lane> <sent>`) and below those of any lane after it. */
const pastLane = (lane: string) => `${lanePart(lane)}!`;

// The handle carries the company, so that the delivery function's `ChangeMessageVisibility`,
// which has only the handle, finds the partition.
const receiptHandleOf = (companyId: string, sortKey: string) => `${encodeURIComponent(companyId)}/${sortKey}`;

function messageKeyOf(receiptHandle: string): { pk: string; sk: string } {
  const slash = receiptHandle.indexOf('/');
  if (slash < 1) throw new Error('Not a receipt handle of the local delivery queue');
  const companyId = decodeURIComponent(receiptHandle.slice(0, slash));
  return { pk: localQueueMessageKeys.partition({ companyId }), sk: receiptHandle.slice(slash + 1) };
}

const messageOf = (item: Record<string, unknown>): LocalQueueMessage => ({
  receiptHandle: receiptHandleOf(item.companyId as string, item.sk as string),
  companyId: item.companyId as string,
  lane: item.lane as string,
  body: item.body as string,
  visibleAt: item.visibleAt as number,
  receiveCount: item.receiveCount as number,
});

/**
 * Writes messages of `companies` while their registry entries say a send is under way: an entry
 * gets a new `sendId` and one more `sending` before, one less after. A worker that found a
 * company's partition empty takes the company off only if no send was under way when it read
 * the entry and neither moved since (`forgetCompanyIfIdle`), so no message is left unlisted,
 * also when the process dies half-way (`sending` then stays up).
 */
async function whileRegistered(
  companyIds: ReadonlySet<string>,
  write: () => Promise<unknown>,
): Promise<void> {
  const count = (companyId: string, by: number, extra = '') =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: localQueueCompanyKeys.key({ companyId }),
        UpdateExpression: `SET entity = :entity, companyId = :companyId${extra} ADD sending :by`,
        ExpressionAttributeValues: {
          ':entity': localQueueCompanyKeys.entity,
          ':companyId': companyId,
          ':by': by,
          ...(extra ? { ':sendId': randomUUID() } : {}),
        },
      }),
    );
  await Promise.all([...companyIds].map((companyId) => count(companyId, 1, ', sendId = :sendId')));
  try {
    await write();
  } finally {
    await Promise.all([...companyIds].map((companyId) => count(companyId, -1)));
  }
}

let sentCounter = 0;

/** Appends messages; a lane's messages keep the order given. */
export async function sendLocalMessages(deliveries: readonly QueuedDelivery[]): Promise<void> {
  const sentAt = new Date().toISOString();
  const items = deliveries.map((delivery) => {
    sentCounter = (sentCounter + 1) % 1_000_000;
    const { companyId } = delivery.message;
    return {
      ...localQueueMessageKeys.key({
        companyId,
        lane: lanePart(delivery.lane),
        sentAt,
        counter: String(sentCounter).padStart(6, '0'),
        deduplicationId: delivery.deduplicationId,
      }),
      entity: localQueueMessageKeys.entity,
      companyId,
      lane: delivery.lane,
      body: JSON.stringify(delivery.message),
      visibleAt: 0,
      receiveCount: 0,
    };
  });
  await whileRegistered(new Set(items.map((item) => item.companyId)), () =>
    Promise.all(items.map((Item) => dynamoDb.send(new PutCommand({ TableName: tableName(), Item })))),
  );
}

/** The companies that may have messages queued. */
export async function listQueuedCompanies(): Promise<QueuedCompany[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
    ExpressionAttributeValues: { ':pk': REGISTRY_PARTITION, ':entry': REGISTRY_ENTRY },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    companyId: item.companyId as string,
    sendId: item.sendId as string,
    sending: (item.sending as number | undefined) ?? 0,
  }));
}

/** The oldest message of the first lane after `afterSortKey` (from the first lane without it). */
async function headAfter(companyId: string, afterSortKey?: string): Promise<LocalQueueMessage | undefined> {
  const { Items = [] } = await dynamoDb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: afterSortKey ? 'pk = :pk AND sk > :after' : 'pk = :pk',
      ExpressionAttributeValues: {
        ':pk': localQueueMessageKeys.partition({ companyId }),
        ...(afterSortKey ? { ':after': afterSortKey } : {}),
      },
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  return Items[0] && messageOf(Items[0]);
}

/**
 * The oldest message of each of a company's lanes, one Query each, as they are taken: from the
 * lane after `afterLane` to the last, then from the first round to `afterLane` (a round robin).
 */
export async function* laneHeads(companyId: string, afterLane?: string): AsyncGenerator<LocalQueueMessage> {
  const start = afterLane === undefined ? undefined : pastLane(afterLane);
  let cursor = start;
  let wrapped = start === undefined;
  for (;;) {
    const head = await headAfter(companyId, cursor);
    const cameRound = wrapped && start !== undefined && head !== undefined && pastLane(head.lane) > start;
    if (head === undefined || cameRound) {
      if (wrapped) return;
      wrapped = true;
      cursor = undefined;
      continue;
    }
    yield head;
    cursor = pastLane(head.lane);
  }
}

/**
 * Takes a company whose partition was found empty off the registry, unless a send was under way
 * when the registry was read (its messages may have been put after the partition was read), or
 * messages were sent or are being sent since: those stay listed.
 */
export async function forgetCompanyIfIdle(company: QueuedCompany): Promise<void> {
  if (company.sending > 0) return;
  await conditionHeld(() =>
    dynamoDb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: localQueueCompanyKeys.key({ companyId: company.companyId }),
        ConditionExpression: 'sendId = :seen AND sending = :none',
        ExpressionAttributeValues: { ':seen': company.sendId, ':none': 0 },
      }),
    ),
  );
}

/** Hides a message for `delaySeconds` (a retry's backoff, or a crashed attempt's timeout). */
export async function delayLocalMessage(receiptHandle: string, delaySeconds: number): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: messageKeyOf(receiptHandle),
      UpdateExpression: 'SET visibleAt = :at, receiveCount = receiveCount + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': Date.now() + delaySeconds * 1000, ':one': 1 },
    }),
  );
}

/** Removes a message that was handled. */
export async function deleteLocalMessage(receiptHandle: string): Promise<void> {
  await dynamoDb.send(new DeleteCommand({ TableName: tableName(), Key: messageKeyOf(receiptHandle) }));
}

/**
 * Moves the messages that an earlier version kept in one partition for every company (under
 * the registry's partition key, sorted before its entries) into their companies' partitions,
 * each with its lane, its place in the lane, its delay and its receive count. Run once as the
 * worker starts; a move cut short is taken up at the next start (a message is put before the
 * old item is deleted).
 */
export async function moveMessagesOfOnePartition(): Promise<number> {
  const legacy = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk < :entry',
    ExpressionAttributeValues: { ':pk': REGISTRY_PARTITION, ':entry': REGISTRY_ENTRY },
    ConsistentRead: true,
  });
  for (const item of legacy) {
    const { companyId } = JSON.parse(item.body as string) as { companyId: string };
    // The earlier sort key: `{sentAt}#{counter}#{deduplicationId}`.
    const [sentAt = '', counter = '', ...deduplicationId] = (item.sk as string).split('#');
    const key = localQueueMessageKeys.key({
      companyId,
      lane: lanePart(item.lane as string),
      sentAt,
      counter,
      deduplicationId: deduplicationId.join('#'),
    });
    await whileRegistered(new Set([companyId]), () =>
      dynamoDb.send(new PutCommand({ TableName: tableName(), Item: { ...item, ...key, companyId } })),
    );
    await dynamoDb.send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
  }
  return legacy.length;
}
