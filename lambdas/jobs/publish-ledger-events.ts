/**
 * The table stream's consumer: every committed ledger event (an INSERT of an event item) is put
 * on the EventBridge bus and handed to the delivery queue in its company's fan-out lane, where
 * the delivery function fans it out to the company's webhook subscriptions (`queueFanOut`): the
 * stream is one line for every company, so the work per event done here is kept small, and
 * each company's fan-out waits only behind its own. A batch is
 * handled in stream order; on a failure the batch, from its first event on, is reported back
 * (`ReportBatchItemFailures`) and comes again, so nothing is skipped and each object's events
 * stay in order (at least once: a repeat publishes again, and finds its deliveries recorded). In AWS an event source mapping calls it (filtered on event items);
 * locally `local/table-stream.ts` reads DynamoDB Local's stream and calls the same handler.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { EVENT_SOURCE } from '#domain/ledger/event-types.js';
import type { LedgerEvent } from '#domain/ledger/ledger-event.js';
import { publishedEventOf } from '#domain/ledger/published-event.js';
import { queueFanOut } from '#domain/webhooks/webhook-deliveries.js';
import { fromEventItem, LEDGER_EVENT_ENTITY } from '#repositories/ledger-repository.js';
import { putBusEntries } from '#shared/event-bus.js';
import { logger } from '#shared/observability.js';

type StreamImage = Parameters<typeof unmarshall>[0];

/** The ledger event a stream record inserted, or undefined for any other record. */
function ledgerEventOf(record: DynamoDBRecord) {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || image?.entity?.S !== LEDGER_EVENT_ENTITY) return undefined;
  return fromEventItem(unmarshall(image as StreamImage));
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const records = event.Records.map((record) => ({ record, ledgerEvent: ledgerEventOf(record) })).filter(
    (entry): entry is { record: DynamoDBRecord; ledgerEvent: LedgerEvent } => entry.ledgerEvent !== undefined,
  );
  if (records.length === 0) return { batchItemFailures: [] };
  const ledgerEvents = records.map((entry) => entry.ledgerEvent);
  try {
    // The whole batch in order: its bus entries (10 per call), then its fan-out.
    await putBusEntries(
      ledgerEvents.map((ledgerEvent) => {
        const published = publishedEventOf(ledgerEvent);
        return {
          source: EVENT_SOURCE,
          detailType: published.type,
          detail: published.data,
          time: published.timestamp,
        };
      }),
    );
    await queueFanOut(ledgerEvents);
  } catch (error) {
    const first = records[0]?.ledgerEvent;
    logger.error('Publishing ledger events failed; the batch comes again', {
      chainId: first?.chainId,
      sequence: first?.sequence,
      events: records.length,
      error,
    });
    // Everything from the first event of the batch on comes again (at least once, in order).
    return { batchItemFailures: [{ itemIdentifier: records[0]?.record.dynamodb?.SequenceNumber ?? '' }] };
  }
  return { batchItemFailures: [] };
};
