/**
 * Local mode's table stream consumer: reads DynamoDB Local's stream through the DynamoDB Streams
 * API and calls the handler an event source mapping calls in AWS (by default the publisher,
 * `lambdas/jobs/publish-ledger-events.ts`; `local/local-sequencer.ts` starts a second one for the
 * sequencer), with the same record shape, the same filter pattern and the same batch-failure
 * contract. Where it stands in each shard (the last sequence number handled) is kept in a
 * checkpoint file, written after each batch succeeds, so a restart of `npm start` resumes after
 * the last handled record: nothing is skipped (at least once).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StackEnvironment } from './embedded-stack.js';

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface TableStreamOptions {
  environment: StackEnvironment;
  /** Where the position in each shard is kept. */
  checkpointFile: string;
  /** How long to wait when no shard had new records. */
  pollIntervalMs?: number;
  /** Most matching records handed to the handler at once (the event source mapping's batch size; 100). */
  batchSize?: number;
  /** Defaults to the publisher job's handler. */
  handler?: StreamHandler;
  /**
   * Where to start in a shard without a checkpoint: its oldest record (the default, so nothing
   * is missed), or only records written from now on (tests that share a long-lived table).
   */
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  /** Called after each batch the handler took (the delivery worker then looks at once). */
  onBatch?: () => void;
  /**
   * The mapping's filter (a Lambda event filter pattern): only matching records reach the
   * handler, which is not called for a batch without one. Every record by default.
   */
  filter?: EventFilterPattern;
  /** How the mapping gives up on a failing batch; by default it retries for ever. */
  failureHandling?: StreamFailureHandling;
  /** The pause before a failed batch is read again. */
  failedBatchPauseMs?: number;
}

/** A stream mapping's bounds on a failing batch (`lib/failed-work.ts`), as Lambda applies them. */
export interface StreamFailureHandling {
  /** Retries of a batch that starts with the same record; -1: until the record expires. */
  retryAttempts: number;
  /** A record older than this is given up on; -1: until the stream drops it. */
  maxRecordAgeSeconds: number;
  /** Splits a failing batch in two and retries each half (a split is no retry). */
  bisectBatchOnError: boolean;
  /** The on-failure destination: gets what Lambda sends, where the records given up on are. */
  onFailure?: (record: StreamFailureRecord) => Promise<void>;
}

/** What Lambda sends to a stream mapping's on-failure destination (the records stay in the stream). */
export interface StreamFailureRecord {
  requestContext: {
    condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
    approximateInvokeCount: number;
  };
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

/** The part of Lambda's event filter syntax local mode applies: exact values and `prefix`. */
interface EventFilterPattern {
  readonly [field: string]: EventFilterPattern | ReadonlyArray<string | number | { readonly prefix: string }>;
}

/** Whether `value` (a record, or a field of it) matches `pattern`, as Lambda's filtering decides. */
function matchesFilter(value: unknown, pattern: EventFilterPattern): boolean {
  return Object.entries(pattern).every(([field, rule]) => {
    const actual = (value as Record<string, unknown> | undefined)?.[field];
    if (!Array.isArray(rule)) return matchesFilter(actual, rule as EventFilterPattern);
    return rule.some((expected) => {
      if (typeof expected !== 'object') return actual === expected;
      if (Object.keys(expected).join() !== 'prefix')
        throw new Error(`Local mode does not apply the filter rule ${JSON.stringify(expected)}`);
      return typeof actual === 'string' && actual.startsWith(expected.prefix);
    });
  });
}

export interface TableStreamReader {
  stop(): Promise<void>;
}

interface Checkpoint {
  streamArn: string;
  /** Last handled sequence number per shard. */
  shards: Record<string, string>;
}

/**
 * Records per GetRecords call: the API's most. Lambda's poller reads the shard, then filters, then
 * batches; reading only a batch's worth would leave the reader behind a write-heavy table whose
 * records mostly do not match (about six per imported row, of which one is an event).
 */
const STREAM_READ_LIMIT = 1000;
/** After a failed batch, the same records come again after this pause. */
const FAILED_BATCH_PAUSE_MS = 1000;
/** While the stream is quiet, the pause between reads doubles up to this. */
const IDLE_PAUSE_MAX_MS = 500;
/** Shards change rarely (DynamoDB Local rolls them every few hours): listed at most this often. */
const SHARD_LIST_INTERVAL_MS = 5000;

function readCheckpoint(file: string, streamArn: string): Checkpoint {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
    if (saved.streamArn === streamArn) return saved;
  }
  return { streamArn, shards: {} };
}

function writeCheckpoint(file: string, checkpoint: Checkpoint): void {
  // Written aside and renamed: a crash leaves the old checkpoint or the new one, never half.
  writeFileSync(`${file}.tmp`, JSON.stringify(checkpoint));
  renameSync(`${file}.tmp`, file);
}

/** The record as Lambda hands it to a DynamoDB stream handler. */
const toLambdaRecord = (record: StreamRecord, streamArn: string): DynamoDBRecord =>
  ({
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    eventSourceARN: streamArn,
    dynamodb: record.dynamodb,
  }) as DynamoDBRecord;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts reading the table's stream from where the checkpoint says. */
export async function startTableStream(options: TableStreamOptions): Promise<TableStreamReader> {
  const clientConfig = {
    endpoint: options.environment.LOCAL_DYNAMODB_ENDPOINT,
    region: options.environment.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const dynamoDb = new DynamoDBClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);
  const { Table } = await dynamoDb.send(
    new DescribeTableCommand({ TableName: options.environment.TABLE_NAME }),
  );
  dynamoDb.destroy();
  const latestStreamArn = Table?.LatestStreamArn;
  if (!latestStreamArn) throw new Error(`The table ${options.environment.TABLE_NAME} has no stream`);
  const streamArn: string = latestStreamArn;
  const handler = options.handler ?? (await import('../lambdas/jobs/publish-ledger-events.js')).handler;
  const checkpoint = readCheckpoint(options.checkpointFile, streamArn);
  const iterators = new Map<string, string | null>();
  let stopping = false;

  async function listShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return shards;
  }

  async function iteratorOf(shardId: string): Promise<string | null> {
    if (iterators.has(shardId)) return iterators.get(shardId) ?? null;
    const after = checkpoint.shards[shardId];
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: options.startingPosition ?? 'TRIM_HORIZON' }),
      }),
    );
    iterators.set(shardId, ShardIterator ?? null);
    return ShardIterator ?? null;
  }

  /** Per shard: the size the next batch is cut to (a bisected batch) and the tries of its first record. */
  const failing = new Map<string, { limit: number; firstRecord: string; tries: number }>();
  const batchSize = options.batchSize ?? 100;
  const filter = options.filter;
  const isMatching = (record: StreamRecord) =>
    !filter || matchesFilter(toLambdaRecord(record, streamArn), filter);

  /** Reads and handles one batch of a shard; the number of records handled. */
  async function readShard(shardId: string): Promise<number> {
    const iterator = await iteratorOf(shardId);
    if (!iterator) return 0; // a closed shard, read to its end
    const { Records: read = [], NextShardIterator } = await streams.send(
      new GetRecordsCommand({ ShardIterator: iterator, Limit: STREAM_READ_LIMIT }),
    );
    if (read.length === 0) {
      iterators.set(shardId, NextShardIterator ?? null);
      return 0;
    }
    // Lambda filters before it batches: a batch is up to `limit` matching records and the others
    // read with them; what follows is read again for the next batch.
    const limit = failing.get(shardId)?.limit ?? batchSize;
    const matchingRecords: StreamRecord[] = [];
    let end = 0;
    for (; end < read.length && matchingRecords.length < limit; end++) {
      const record = read[end] as StreamRecord;
      if (isMatching(record)) matchingRecords.push(record);
    }
    const Records = read.slice(0, end);
    const cut = Records.length < read.length;
    const matching = matchingRecords.map((record) => toLambdaRecord(record, streamArn));
    let failedAt: string | undefined;
    try {
      const result = matching.length > 0 ? await handler({ Records: matching }) : { batchItemFailures: [] };
      failedAt = result?.batchItemFailures?.[0]?.itemIdentifier;
    } catch (error) {
      // A handler that throws fails the whole batch, as the function's error does in AWS.
      if (!options.failureHandling) throw error;
      failedAt = matching[0]?.dynamodb?.SequenceNumber;
    }
    const sequenceIs = (record: StreamRecord) => record.dynamodb?.SequenceNumber === failedAt;
    const failedIndex = Records.findIndex(sequenceIs);
    let handled = failedAt === undefined ? Records : Records.slice(0, Math.max(failedIndex, 0));
    if (failedAt !== undefined && options.failureHandling) {
      // The batch's matching records from the failed one on, as the mapping counts them.
      const failed = matchingRecords.slice(Math.max(matchingRecords.findIndex(sequenceIs), 0));
      if (await giveUpOn(shardId, failed, options.failureHandling)) handled = Records;
    } else if (failedAt === undefined) {
      failing.delete(shardId);
    }
    const last = handled.at(-1)?.dynamodb?.SequenceNumber;
    if (last) {
      checkpoint.shards[shardId] = last;
      writeCheckpoint(options.checkpointFile, checkpoint);
    }
    options.onBatch?.();
    if (handled.length < Records.length || cut) {
      // Read again from after the last handled record; with none handled, from where this read
      // started (a shard without a checkpoint would otherwise start again at LATEST, past them).
      if (handled.length > 0) iterators.delete(shardId);
      else iterators.set(shardId, iterator);
      if (handled.length < Records.length) await delay(options.failedBatchPauseMs ?? FAILED_BATCH_PAUSE_MS);
    } else {
      iterators.set(shardId, NextShardIterator ?? null);
    }
    return handled.length;
  }

  /**
   * After a failed batch (from its first failed record): halves it when the mapping bisects, or
   * counts a try of its first record; gives it up (to the destination) past the tries or the
   * age. Whether it was given up on (the shard then moves past it).
   */
  async function giveUpOn(
    shardId: string,
    failed: StreamRecord[],
    handling: StreamFailureHandling,
  ): Promise<boolean> {
    const first = failed[0]?.dynamodb;
    const state = failing.get(shardId);
    const tries = state && state.firstRecord === first?.SequenceNumber ? state.tries + 1 : 1;
    const ageSeconds = (Date.now() - (first?.ApproximateCreationDateTime?.getTime() ?? Date.now())) / 1000;
    const tooOld = handling.maxRecordAgeSeconds >= 0 && ageSeconds > handling.maxRecordAgeSeconds;
    if (handling.bisectBatchOnError && failed.length > 1 && !tooOld) {
      failing.set(shardId, { limit: Math.ceil(failed.length / 2), firstRecord: '', tries: 0 });
      return false;
    }
    if (!tooOld && (handling.retryAttempts < 0 || tries <= handling.retryAttempts)) {
      failing.set(shardId, { limit: failed.length, firstRecord: first?.SequenceNumber ?? '', tries });
      return false;
    }
    failing.delete(shardId);
    const arrival = (record: StreamRecord | undefined) =>
      (record?.dynamodb?.ApproximateCreationDateTime ?? new Date()).toISOString();
    await handling.onFailure?.({
      requestContext: {
        condition: tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
        approximateInvokeCount: tries,
      },
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: first?.SequenceNumber ?? '',
        endSequenceNumber: failed.at(-1)?.dynamodb?.SequenceNumber ?? '',
        approximateArrivalOfFirstRecord: arrival(failed[0]),
        approximateArrivalOfLastRecord: arrival(failed.at(-1)),
        batchSize: failed.length,
        streamArn,
      },
    });
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: `Table stream records given up on (${tooOld ? 'too old' : 'retries exhausted'})`,
        shardId,
        startSequenceNumber: first?.SequenceNumber,
        records: failed.length,
      }),
    );
    return true;
  }

  let shards: Shard[] = [];
  let shardsListedAt = 0;
  async function currentShards(): Promise<Shard[]> {
    const closedShardDone = shards.some((shard) => shard.ShardId && iterators.get(shard.ShardId) === null);
    if (Date.now() - shardsListedAt > SHARD_LIST_INTERVAL_MS || closedShardDone || shards.length === 0) {
      shards = await listShards();
      shardsListedAt = Date.now();
    }
    return shards;
  }

  async function run(): Promise<void> {
    let idlePauseMs = options.pollIntervalMs ?? 50;
    while (!stopping) {
      let handled = 0;
      try {
        const shards = await currentShards();
        const open = new Set(shards.map((shard) => shard.ShardId));
        for (const shard of shards) {
          if (stopping || !shard.ShardId) break;
          // A child shard waits until its parent is read to its end, so order holds across a split.
          const parent = shard.ParentShardId;
          if (parent && open.has(parent) && iterators.get(parent) !== null) continue;
          handled += await readShard(shard.ShardId);
        }
      } catch (error) {
        // An expired iterator or a stopped DynamoDB Local: start again from the checkpoint.
        iterators.clear();
        shardsListedAt = 0;
        if (!stopping) {
          console.error(
            JSON.stringify({
              level: 'WARN',
              message: 'Table stream read failed; retrying',
              error: String(error),
            }),
          );
        }
        await delay(FAILED_BATCH_PAUSE_MS);
      }
      if (handled > 0) idlePauseMs = options.pollIntervalMs ?? 50;
      else if (!stopping) {
        await delay(idlePauseMs);
        idlePauseMs = Math.min(IDLE_PAUSE_MAX_MS, idlePauseMs * 2);
      }
    }
  }

  // Positions taken before this returns: with LATEST, what the caller writes next is read.
  for (const shard of await currentShards()) if (shard.ShardId) await iteratorOf(shard.ShardId);
  const running = run();
  return {
    async stop() {
      stopping = true;
      await running;
      streams.destroy();
    },
  };
}
