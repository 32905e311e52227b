/**
 * The log's sequencer inside `npm start`, started as in AWS: by the outbox inserts of the table
 * stream. A stream reader of its own (`table-stream.ts`, its own checkpoint file, the mapping's
 * filter `OUTBOX_INSERT_FILTER`) hands the matching records to `runSequencer`, which calls the
 * function's handler (`lambdas/jobs/sequence-ledger.ts`); a failed run's records come again
 * after a pause, as the mapping retries them. Nothing runs while nobody writes but the stream
 * reader's look for new records (every 50 ms, backing off to 500 ms while the stream is quiet).
 */
import { join } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { OUTBOX_INSERT_FILTER } from '../lambdas/repositories/log-outbox.js';
import type { StackEnvironment } from './embedded-stack.js';
import { type StreamFailureHandling, startTableStream } from './table-stream.js';

/** The sequencer's position in the table stream, beside the publisher's (`events-out.ts`). */
const SEQUENCER_STREAM_CHECKPOINT_FILE = 'sequencer-stream-checkpoint.json';

export interface LocalSequencer {
  stop(): Promise<void>;
}

/**
 * One run of the sequencer for a batch of outbox records, as the event source mapping starts
 * it: the function's handler, loaded on first use (after the environment names the stack).
 */
async function runSequencer(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const { handler } = await import('../lambdas/jobs/sequence-ledger.js');
  return handler(event);
}

/**
 * Starts reading the table stream for the sequencer; call once the environment points at the
 * embedded stack (the clients read it on load, and `LOCAL_EVENTS_DIRECTORY` holds the position).
 */
export async function startLocalSequencer(
  options: {
    /** Runs the sequencer function (its handler in this process when not given). */
    handler?: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
    /** How the mapping gives up on a batch (the template's; retries for ever if not given). */
    failureHandling?: StreamFailureHandling;
  } = {},
): Promise<LocalSequencer> {
  const environment = process.env as StackEnvironment;
  return startTableStream({
    environment,
    checkpointFile: join(environment.LOCAL_EVENTS_DIRECTORY as string, SEQUENCER_STREAM_CHECKPOINT_FILE),
    filter: OUTBOX_INSERT_FILTER,
    handler: options.handler ?? runSequencer,
    failureHandling: options.failureHandling,
  });
}
