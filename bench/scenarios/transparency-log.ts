/**
 * The transparency log: what one sequencer cycle costs (DynamoDB and S3 calls, time) per new
 * event when the log already holds 1,000 and 100,000 entries (filled with synthetic outbox
 * entries, since the sequencer reads only the outbox), the size and offline verification time
 * of inclusion and consistency proofs at those sizes, and the time from a committed update to
 * its inclusion in a published checkpoint under a steady write load, with the sequencer looping
 * as in `npm start`. Runs on a table and bucket of its own.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { localSigner } from '../../lambdas/domain/ledger/log-signer';
import { consistencyProof, inclusionProof, treeRoot } from '../../lambdas/domain/ledger/log-tree';
import { runSequencerCycle, type SequencerStep } from '../../lambdas/domain/ledger/sequencer';
import type { Witnessing } from '../../lambdas/domain/ledger/witness-config';
import { operations } from '../../lambdas/operations';
import { putItems } from '../../lambdas/repositories/batch-delete';
import { outboxKeyOf } from '../../lambdas/repositories/log-outbox';
import { findLogIndex, readLogState } from '../../lambdas/repositories/log-state-repository';
import { storedHashes } from '../../lambdas/repositories/log-tile-store';
import { createTableIfMissing } from '../../local/table-setup';
import { localS3 } from '../../test/support/s3-client';
import {
  formatVerifierKey,
  parseWitnessPolicy,
  verifyConsistency,
  verifyInclusion,
} from '../../verifier/index';
import { startWitnessServer } from '../../witness/start-witness-server';
import type { DynamoDbMeter } from '../support/dynamodb-meter';
import { givenObject, givenPlace, newCompany } from '../support/fixtures';
import { invokeExpecting } from '../support/handler-calls';
import type { S3Meter } from '../support/s3-meter';
import { median, percentile, round } from '../support/statistics';

export interface SequencerCostRow {
  logSize: number;
  newEvents: number;
  dynamoDbCalls: number;
  s3Calls: number;
  dynamoDbCallsPerEvent: number;
  s3CallsPerEvent: number;
  msPerEvent: number;
  cycleMs: number;
  inclusionProofHashes: number;
  inclusionProofBytes: number;
  inclusionVerifyMs: number;
  consistencyProofHashes: number;
  consistencyVerifyMs: number;
}

export interface LogLatency {
  events: number;
  writesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The same load with two local witnesses, both needed (2-of-2), and what each request took. */
export interface WitnessedLogLatency extends LogLatency {
  witnesses: number;
  /** add-checkpoint requests the sequencer sent, and their round trip over loopback. */
  addCheckpointRequests: number;
  addCheckpointP50Ms: number;
  addCheckpointP99Ms: number;
}

const signer = localSigner(
  'asset-registry.bench/log',
  join(mkdtempSync(join(tmpdir(), 'bench-key-')), 'key.pem'),
);
const sum = (counts: Record<string, number>) =>
  Object.values(counts).reduce((total, count) => total + count, 0);

async function useOwnTableAndBucket(): Promise<() => void> {
  const previous = { table: process.env.TABLE_NAME, bucket: process.env.DIGEST_BUCKET_NAME };
  const name = `bench-log-${randomUUID().slice(0, 8)}`;
  const client = new DynamoDBClient({
    endpoint: process.env.LOCAL_DYNAMODB_ENDPOINT,
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await createTableIfMissing(client, name);
  client.destroy();
  await localS3().send(new CreateBucketCommand({ Bucket: name }));
  process.env.TABLE_NAME = name;
  process.env.DIGEST_BUCKET_NAME = name;
  return () => {
    process.env.TABLE_NAME = previous.table;
    process.env.DIGEST_BUCKET_NAME = previous.bucket;
  };
}

let synthetic = 0;
/** Companies the synthetic events are spread over: a cycle takes at most 100 of one company. */
const SYNTHETIC_COMPANIES = 100;
/** Outbox items of `count` synthetic events (random 32-byte hashes), as event transactions write them. */
async function seedOutbox(count: number): Promise<void> {
  const timestamp = new Date().toISOString();
  await putItems(
    Array.from({ length: count }, () => {
      const event = {
        chainId: `object:bench${synthetic % SYNTHETIC_COMPANIES}:${synthetic++}`,
        sequence: 1,
        timestamp,
        hash: randomBytes(32).toString('hex'),
      };
      const { chainId, sequence, hash } = event;
      return { ...outboxKeyOf(event), entity: 'logOutbox', chainId, sequence, hash };
    }),
  );
}

const cycle = () => runSequencerCycle({ signer, leaseMs: 5_000 });

/** Fills the log to `size` entries, 1,000 per checkpoint. */
async function growTo(size: number): Promise<void> {
  for (
    let current = (await readLogState()).treeSize;
    current < size;
    current = (await readLogState()).treeSize
  ) {
    await seedOutbox(Math.min(1000, size - current));
    await cycle();
  }
}

async function timeMs(action: () => Promise<unknown>, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    await action();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return round(median(samples), 3);
}

export async function runTransparencyLog(options: {
  meter: DynamoDbMeter;
  s3Meter: S3Meter;
  logSizes: number[];
  newEvents: number;
  latencySeconds: number;
  writesPerSecond: number;
}): Promise<{ sequencer: SequencerCostRow[]; latency: LogLatency; witnessedLatency: WitnessedLogLatency }> {
  const restore = await useOwnTableAndBucket();
  try {
    await cycle();
    const rows: SequencerCostRow[] = [];
    const began = Date.now();
    const progress = (what: string) =>
      console.log(`   ${what} (${((Date.now() - began) / 1000).toFixed(0)} s)`);
    for (const logSize of options.logSizes) {
      await growTo(logSize);
      progress(`log grown to ${logSize.toLocaleString('en-US')} entries`);
      await seedOutbox(options.newEvents);
      options.meter.reset();
      options.s3Meter.reset();
      const started = process.hrtime.bigint();
      await cycle();
      const cycleMs = Number(process.hrtime.bigint() - started) / 1e6;
      const dynamoDbCalls = options.meter.read().calls;
      const s3Calls = sum(options.s3Meter.read());
      const state = await readLogState();
      const hashes = storedHashes(state.treeSize);
      const root = await treeRoot(hashes, state.treeSize);
      const index = Math.floor(state.treeSize / 3);
      const proof = await inclusionProof(hashes, index, state.treeSize);
      const leaf = await hashes.hashAt(0, index);
      const older = Math.floor(state.treeSize / 2) + 1;
      const olderRoot = await treeRoot(hashes, older);
      const consistency = await consistencyProof(hashes, older, state.treeSize);
      rows.push({
        logSize,
        newEvents: options.newEvents,
        dynamoDbCalls,
        s3Calls,
        dynamoDbCallsPerEvent: round(dynamoDbCalls / options.newEvents, 3),
        s3CallsPerEvent: round(s3Calls / options.newEvents, 3),
        msPerEvent: round(cycleMs / options.newEvents, 3),
        cycleMs: round(cycleMs, 1),
        inclusionProofHashes: proof.length,
        inclusionProofBytes: proof.length * 32,
        inclusionVerifyMs: await timeMs(() => verifyInclusion(index, state.treeSize, leaf, proof, root), 50),
        consistencyProofHashes: consistency.length,
        consistencyVerifyMs: await timeMs(
          () =>
            verifyConsistency(
              older,
              state.treeSize,
              olderRoot.toString('hex'),
              root.toString('hex'),
              consistency.map((hash) => hash.toString('hex')),
            ),
          50,
        ),
      });
    }
    progress('sequencer cycles measured; commit to checkpoint next');
    const latency = await measureLatency(options);
    progress('commit to checkpoint measured; with two witnesses next');
    const witnessedLatency = await measureWitnessedLatency(options);
    progress('commit to witnessed checkpoint measured');
    return { sequencer: rows, latency, witnessedLatency };
  } finally {
    restore();
  }
}

/**
 * The latency below with two witnesses on loopback (`witness/start-witness-server.ts`, each
 * with its own data folder) that must both cosign, and the round trip of each add-checkpoint.
 */
async function measureWitnessedLatency(options: {
  latencySeconds: number;
  writesPerSecond: number;
}): Promise<WitnessedLogLatency> {
  const logKey = await formatVerifierKey(signer.keyName, await signer.publicKey());
  const witnesses = await Promise.all(
    ['w1', 'w2'].map((name) =>
      startWitnessServer({
        dataDir: mkdtempSync(join(tmpdir(), `bench-witness-${name}-`)),
        logs: [logKey],
        name: `bench.local/${name}`,
      }),
    ),
  );
  const requestMs: number[] = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const started = process.hrtime.bigint();
    try {
      return await fetch(input, init);
    } finally {
      requestMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  try {
    const policy = await parseWitnessPolicy(
      [
        ...witnesses.map((witness, index) => `witness w${index + 1} ${witness.verifierKey} ${witness.url}`),
        'group both all w1 w2',
        'quorum both',
      ].join('\n'),
    );
    const latency = await measureLatency({
      ...options,
      witnessing: { policy, timeoutMs: 3000, fetch: timedFetch },
    });
    return {
      ...latency,
      witnesses: witnesses.length,
      addCheckpointRequests: requestMs.length,
      addCheckpointP50Ms: round(percentile(requestMs, 0.5), 1),
      addCheckpointP99Ms: round(percentile(requestMs, 0.99), 1),
    };
  } finally {
    await Promise.all(witnesses.map((witness) => witness.close()));
  }
}

/** Steady updates while the sequencer loops as in `npm start`; commit → published checkpoint. */
async function measureLatency(options: {
  latencySeconds: number;
  writesPerSecond: number;
  witnessing?: Witnessing;
}): Promise<LogLatency> {
  const company = await newCompany('Bench log latency');
  const place = await givenPlace(company);
  const objectIds = [await givenObject(company, place), await givenObject(company, place)];
  // Each published size, when first seen: after a commit (published there without witnesses)
  // and after each cycle (with witnesses, published once their cosignatures meet the quorum).
  const published: Array<{ at: number; treeSize: number }> = [];
  const notePublished = async () => {
    const treeSize = (await readLogState()).published?.treeSize ?? 0;
    if (treeSize > (published.at(-1)?.treeSize ?? 0)) published.push({ at: Date.now(), treeSize });
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await runSequencerCycle({
        signer,
        leaseMs: 5_000,
        witnessing: options.witnessing,
        afterStep: async (step: SequencerStep) => {
          if (step === 'commit') await notePublished();
        },
      });
      await notePublished();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const commits: Array<{ chainId: string; sequence: number; at: number }> = [];
  const gapMs = 1000 / options.writesPerSecond;
  const until = Date.now() + options.latencySeconds * 1000;
  for (let write = 0; Date.now() < until; write++) {
    const objectId = objectIds[write % objectIds.length] as string;
    const next = Date.now() + gapMs;
    const response = await invokeExpecting(operations.updateObject, {
      principal: company.principal,
      pathParameters: { objectId },
      body: { action: 'update', description: `steady write ${write}` },
    });
    const body = response.body as { blockchain: { eventCount: number } };
    commits.push({
      chainId: `object:${company.principal.tenantId}:${objectId}`,
      sequence: body.blockchain.eventCount,
      at: Date.now(),
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
  }
  // Until the last write is published.
  const lastIndex = async () => findLogIndex(commits.at(-1)!.chainId, commits.at(-1)!.sequence);
  for (let index = await lastIndex(); ; index = await lastIndex()) {
    if (index !== undefined && (published.at(-1)?.treeSize ?? 0) > index) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  running = false;
  await loop;
  const latencies: number[] = [];
  for (const commit of commits) {
    const index = await findLogIndex(commit.chainId, commit.sequence);
    const publication = published.find((each) => index !== undefined && each.treeSize > index);
    if (publication) latencies.push(Math.max(0, publication.at - commit.at));
  }
  return {
    events: latencies.length,
    writesPerSecond: options.writesPerSecond,
    p50Ms: round(percentile(latencies, 0.5), 0),
    p99Ms: round(percentile(latencies, 0.99), 0),
    maxMs: round(Math.max(...latencies), 0),
  };
}
