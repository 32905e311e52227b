/**
 * The table stream's consumer: every committed ledger event (an INSERT of an event item) is put
 * on the EventBridge bus and fanned out to the company's webhook subscriptions. Records are
 * handled in stream order; on a failure the rest of the batch, from the failed record on, is
 * reported back (`ReportBatchItemFailures`) and comes again, so nothing is skipped and each
 * object's events stay in order (at least once: a repeat publishes again, and finds its
 * deliveries recorded). In AWS an event source mapping calls it (filtered on event items);
 * locally `local/table-stream.ts` reads DynamoDB Local's stream and calls the same handler.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { EVENT_SOURCE } from '#domain/ledger/event-types.js';
import { publishedEventOf } from '#domain/ledger/published-event.js';
import { fanOutEvents } from '#domain/webhooks/webhook-deliveries.js';
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
  for (const record of event.Records) {
    const ledgerEvent = ledgerEventOf(record);
    if (!ledgerEvent) continue;
    try {
      const published = publishedEventOf(ledgerEvent);
      await putBusEntries([
        {
          source: EVENT_SOURCE,
          detailType: published.type,
          detail: published.data,
          time: published.timestamp,
        },
      ]);
      await fanOutEvents([ledgerEvent]);
    } catch (error) {
      logger.error('Publishing a ledger event failed; the batch resumes from it', {
        chainId: ledgerEvent.chainId,
        sequence: ledgerEvent.sequence,
        error,
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
};
