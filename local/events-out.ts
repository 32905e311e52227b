/**
 * Events out on one machine: the table stream reader (publisher) and the webhook delivery
 * worker, both running the Lambda handlers of `lambdas/jobs/`. `npm start` runs them beside the
 * local gateway; tests and the bench start them the same way.
 */
import { join } from 'node:path';
import { LEDGER_EVENT_INSERT_FILTER } from '../lambdas/repositories/ledger-event-entity.js';
import type { StackEnvironment } from './embedded-stack.js';
import { startTableStream, type TableStreamOptions } from './table-stream.js';
import { type DeliveryWorkerOptions, startDeliveryWorker } from './webhook-delivery-worker.js';

/** The stream reader's checkpoint, beside the other local files of events out. */
const STREAM_CHECKPOINT_FILE = 'table-stream-checkpoint.json';

export interface LocalEventsOut {
  stop(): Promise<void>;
}

/** Starts publishing and delivering; `eventsDirectory` is the stack's `LOCAL_EVENTS_DIRECTORY`. */
export async function startLocalEventsOut(
  environment: StackEnvironment,
  options: {
    pollIntervalMs?: number;
    worker?: DeliveryWorkerOptions;
    startingPosition?: TableStreamOptions['startingPosition'];
    /** Runs the publisher (its handler in this process when not given). */
    publisher?: TableStreamOptions['handler'];
    /** How the publisher's mapping gives up on a batch (the template's; retries for ever if not given). */
    publisherFailureHandling?: TableStreamOptions['failureHandling'];
  } = {},
): Promise<LocalEventsOut> {
  const worker = await startDeliveryWorker({ pollIntervalMs: options.pollIntervalMs, ...options.worker });
  const stream = await startTableStream({
    environment,
    checkpointFile: join(environment.LOCAL_EVENTS_DIRECTORY as string, STREAM_CHECKPOINT_FILE),
    pollIntervalMs: options.pollIntervalMs,
    startingPosition: options.startingPosition,
    handler: options.publisher,
    filter: LEDGER_EVENT_INSERT_FILTER,
    failureHandling: options.publisherFailureHandling,
    // The deliveries of a batch are queued: the worker need not wait for its next look.
    onBatch: () => worker.wake(),
  });
  return {
    async stop() {
      await stream.stop();
      await worker.stop();
    },
  };
}
