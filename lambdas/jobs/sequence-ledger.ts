/**
 * Started by the outbox records of the table stream (an event source mapping filtered on
 * outbox inserts, `lib/ledger-log.ts`; locally `local/local-sequencer.ts`): integrates the whole
 * outbox into the log, publishes its checkpoints and ends (`sequencer-drain.ts` says how runs
 * started at once share the work). Nothing runs while nobody writes. The records themselves
 * are only the signal: the outbox is what is integrated, so a run started with any event (a
 * manual invoke, `{}`) drains it too. A run that spends its time on a backlog reports its
 * batch's first record as failed, so that the mapping starts it again to go on; so does a run
 * whose last checkpoint still waits for its witnesses' quorum when its time is spent
 * (`LEDGER_WITNESS_POLICY`, `witness-config.ts`).
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { signerFromEnvironment } from '#domain/ledger/log-signer.js';
import { drainOutbox, storedSequencerLog } from '#domain/ledger/sequencer-drain.js';
import { sequencerTimingFromEnvironment } from '#domain/ledger/sequencer-timing.js';
import { witnessingFromEnvironment } from '#domain/ledger/witness-config.js';
import { storedSequencerStore } from '#repositories/stored-ledger.js';
import { metrics } from '#shared/observability.js';

const signer = signerFromEnvironment();
const timing = sequencerTimingFromEnvironment();
// Loaded and checked at the first run (the check needs the signer's public key): a policy that
// does not fit this log fails every run, with the reason.
let log: Promise<ReturnType<typeof storedSequencerLog>> | undefined;
const loadLog = async () =>
  storedSequencerLog({
    signer,
    store: storedSequencerStore,
    leaseMs: timing.leaseSeconds * 1000,
    witnessing: await witnessingFromEnvironment(signer, timing.leaseSeconds),
  });

export const handler = async (event?: Partial<DynamoDBStreamEvent>): Promise<DynamoDBBatchResponse> => {
  log ??= loadLog().catch((error: unknown) => {
    log = undefined;
    throw error;
  });
  let result: Awaited<ReturnType<typeof drainOutbox>>;
  try {
    result = await drainOutbox(await log, {
      leaseRetryMs: timing.leaseRetrySeconds * 1000,
      runUntil: Date.now() + timing.runSeconds * 1000,
    });
  } finally {
    // The witnesses' answers, counted by outcome (`witness-client.ts`).
    metrics.publishStoredMetrics();
  }
  if (result.integrated > 0 || result.outcome === 'out-of-time') {
    console.log(JSON.stringify({ level: 'INFO', message: 'Ledger sequencer run', ...result }));
  }
  if (result.outcome !== 'out-of-time') return { batchItemFailures: [] };
  const first = event?.Records?.[0]?.dynamodb?.SequenceNumber;
  // Started by hand: no batch to come again, so the caller is told.
  if (first === undefined) throw new Error('The ledger outbox was not drained within the run; run it again');
  return { batchItemFailures: [{ itemIdentifier: first }] };
};
