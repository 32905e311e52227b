/** The transparency log's section of the bench report. */
import type { LogLatency, SequencerCostRow, WitnessedLogLatency } from '../scenarios/transparency-log';
import type { Section } from './results-report';
import { round } from './statistics';
import { column, markdownTable } from './table';

export function transparencyLogSection(result: {
  sequencer: SequencerCostRow[];
  latency: LogLatency;
  witnessedLatency?: WitnessedLogLatency;
}): Section {
  const { latency, witnessedLatency: witnessed } = result;
  return {
    title: '9. Transparency log',
    intro:
      "One sequencer cycle integrating a batch of new events into a log already holding `log size` entries (filled with synthetic outbox entries), metered by SDK middleware: DynamoDB and S3 calls and time, per new event. Proofs at that size: hashes (32 bytes each) and the shared verifier's median time to check one (Web Crypto).",
    table: markdownTable(result.sequencer, [
      column('log size', (row) => row.logSize, true),
      column('new events', (row) => row.newEvents, true),
      column('DynamoDB calls', (row) => row.dynamoDbCalls, true),
      column('S3 calls', (row) => row.s3Calls, true),
      column('DynamoDB / event', (row) => row.dynamoDbCallsPerEvent, true),
      column('S3 / event', (row) => row.s3CallsPerEvent, true),
      column('ms / event', (row) => row.msPerEvent, true),
      column(
        'inclusion proof (hashes / bytes)',
        (row) => `${row.inclusionProofHashes} / ${row.inclusionProofBytes}`,
      ),
      column('verify inclusion ms', (row) => row.inclusionVerifyMs, true),
      column('consistency proof hashes', (row) => row.consistencyProofHashes, true),
      column('verify consistency ms', (row) => row.consistencyVerifyMs, true),
    ]),
    notes: [
      `Commit to published checkpoint under a steady load of ${latency.writesPerSecond} updates/s (sequencer every 250 ms, as in npm start): p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms over ${latency.events} events.`,
      ...(witnessed
        ? [
            `The same load with ${witnessed.witnesses} local witnesses that must both cosign (2-of-2, \`witness/\` on loopback, each storing to its own folder with fsync), commit to witnessed checkpoint: p50 ${witnessed.p50Ms} ms, p99 ${witnessed.p99Ms} ms, max ${witnessed.maxMs} ms over ${witnessed.events} events (${round(witnessed.p50Ms / Math.max(latency.p50Ms, 1), 2)}× the p50 without witnesses). Each add-checkpoint, as the sequencer saw it (HTTP round trip, the witness's checks, its durable write): p50 ${witnessed.addCheckpointP50Ms} ms, p99 ${witnessed.addCheckpointP99Ms} ms over ${witnessed.addCheckpointRequests} requests.`,
          ]
        : []),
      'Model for 10 million entries: the cycle reads the outbox (4 Queries), takes the lease, records the batch, writes one position item and deletes one outbox item per event (TransactWriteItems, 100 per call), commits and clears the batch: 8 + 2·⌈B/100⌉ DynamoDB calls for a batch of B, whatever the log size. S3: one partial tile read and write per level (⌈log₂₅₆ N⌉ levels: 3 from 65,536 to 16.7 million entries) plus the entry bundle, each full tile completed once (B/256 per level), and 2 checkpoint writes. So the per-event figures at 10 million equal those at 100,000; proofs grow to ⌈log₂ 10⁷⌉ = 24 hashes (768 bytes).',
    ],
  };
}
