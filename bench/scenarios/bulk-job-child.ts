/**
 * One bulk job in a process of its own, so that its memory is the job's alone (the bench's own
 * process holds s3rver and every earlier section's state): started by `bulk-import-export.ts`
 * with `node --import tsx --expose-gc` and the environment of the section's embedded stack, the
 * task as JSON in argv[2], the figures written as JSON to argv[3].
 *
 * - setup: a company with one category and subcategory (through their handlers).
 * - import: a CSV of `rows` rows (create mode, one subcategory given as the job's default
 *   target) through `createImport`, which stores the file and starts the job
 *   (`lambdas/jobs/import-objects.ts`, inline in this process as in `npm start`); done when the
 *   background job has settled.
 * - export: `exportObjects` (CSV, the whole company) with `EXPORT_INLINE_MAX_BYTES=0`, so that
 *   it becomes the background job (`runExport` through `lambdas/jobs/export-objects.ts`) that
 *   streams the file to S3 whatever the size, as every export above 4 MiB does in AWS.
 * - update: an upsert import of the first `rows` rows of the import's file with another owner
 *   (one `update` event each): the objects an as-of export before it must replay.
 * - export-as-of: the same export with `asOf` (issue 25): every object as it stood then; with
 *   `proofs`, as JSON Lines with each row's inclusion proofs.
 * - sequence: the log's sequencer until it has caught up (every event so far in a checkpoint),
 *   with a signing key kept beside the result file; not measured.
 *
 * Memory: `process.memoryUsage()` sampled every 50 ms (RSS, heap used, heap total, external),
 * and the kernel's high-water mark of resident memory (VmHWM, which catches a peak between two
 * samples). Both are reset once the request part is done and the job runs (a full GC, then
 * `5` written to /proc/self/clear_refs), so for an import the CSV held by `createImport` (the
 * request) does not count: the figures are those of the process running the job.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BulkChildTask {
  /** setup: a company with one subcategory, written as {@link BulkCompany} (no figures). */
  kind: 'setup' | 'import' | 'export' | 'update' | 'export-as-of' | 'sequence';
  companyId: string;
  keyId: string;
  categoryId: string;
  subcategoryId: string;
  /** Import: rows in the file. Export: rows expected. Update: rows changed. */
  rows: number;
  /** Export as of: the instant, and whether rows carry their proofs (JSON Lines). */
  asOf?: string;
  proofs?: boolean;
}

export type BulkCompany = Pick<BulkChildTask, 'companyId' | 'keyId' | 'categoryId' | 'subcategoryId'>;

export interface MemoryFigures {
  /** RSS right before the job, after a full GC (MB). */
  rssBeforeMb: number;
  heapUsedBeforeMb: number;
  /** Highest sampled RSS while the job ran (MB). */
  peakRssMb: number;
  /** VmHWM at the end, reset when the job started (MB). */
  vmHwmMb: number;
  /** Median of the sampled RSS and heap used: the job's steady state, beside its peaks. */
  medianRssMb: number;
  medianHeapUsedMb: number;
  peakHeapUsedMb: number;
  peakHeapTotalMb: number;
  peakExternalMb: number;
  samples: number;
}

export interface BulkChildResult {
  kind: 'import' | 'export' | 'update' | 'export-as-of';
  format: 'csv' | 'jsonl';
  rows: number;
  fileBytes: number;
  seconds: number;
  status: string;
  counts: Record<string, number>;
  /** The job's own times (ISO), from its record. */
  times: Record<string, string | null>;
  /** When the call was made and when the job had settled (ISO). */
  calledAt: string;
  settledAt: string;
  dynamoDbCalls: number;
  /** Milliseconds per DynamoDB call, by command: median and 95th percentile. */
  callMs: Record<string, { median: number; p95: number }>;
  callsByCommand: Record<string, number>;
  failedCalls: number;
  memory: MemoryFigures;
}

const MB = 1024 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const vmHwmBytes = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

class MemorySampler {
  private peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0 };
  private before = process.memoryUsage();
  private rssSamples: number[] = [];
  private heapSamples: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** A full GC, the high-water mark cleared, then a sample every 50 ms. */
  start(): void {
    gc();
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // VmHWM then covers the whole process; the sampled peak stays the job's
    }
    this.before = process.memoryUsage();
    this.peak = {
      rss: this.before.rss,
      heapUsed: this.before.heapUsed,
      heapTotal: this.before.heapTotal,
      external: this.before.external,
    };
    this.timer = setInterval(() => this.sample(), 50);
  }

  private sample(): void {
    const now = process.memoryUsage();
    this.rssSamples.push(now.rss);
    this.heapSamples.push(now.heapUsed);
    this.peak.rss = Math.max(this.peak.rss, now.rss);
    this.peak.heapUsed = Math.max(this.peak.heapUsed, now.heapUsed);
    this.peak.heapTotal = Math.max(this.peak.heapTotal, now.heapTotal);
    this.peak.external = Math.max(this.peak.external, now.external);
  }

  stop(): MemoryFigures {
    clearInterval(this.timer);
    this.sample();
    return {
      rssBeforeMb: mb(this.before.rss),
      heapUsedBeforeMb: mb(this.before.heapUsed),
      peakRssMb: mb(this.peak.rss),
      vmHwmMb: mb(vmHwmBytes()),
      peakHeapUsedMb: mb(this.peak.heapUsed),
      peakHeapTotalMb: mb(this.peak.heapTotal),
      peakExternalMb: mb(this.peak.external),
      medianRssMb: mb(median(this.rssSamples)),
      medianHeapUsedMb: mb(median(this.heapSamples)),
      samples: this.rssSamples.length,
    };
  }
}

/**
 * The import file: a header and `rows` rows of ordinary objects, all with their own externalId
 * (from the company's id, so that an update file names the same objects); `owner` changes the owners.
 */
function csvFile(rows: number, runId: string, owner = 'Warehouse'): Buffer {
  const lines = ['externalId,name,description,owner,metadata.serial,metadata.location\n'];
  for (let row = 0; row < rows; row++) {
    const label = `${runId}-${String(row).padStart(6, '0')}`;
    lines.push(
      `BULK-${label},Bulk object ${row},"An asset of ordinary description length, imported by the benchmark.",${owner} ${row % 50},SN-${label},Aisle ${row % 20}\n`,
    );
  }
  return Buffer.from(lines.join(''), 'utf8');
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '{}') as BulkChildTask;
  const output = process.argv[3];
  if (!output) throw new Error('usage: bulk-job-child.ts <task JSON> <result file>');
  if (task.kind === 'setup') {
    const { newCompany, givenPlace } = await import('../support/fixtures.js');
    const company = await newCompany(`Bench bulk ${task.rows}`);
    const place = await givenPlace(company);
    const created: BulkCompany = {
      companyId: company.tenantId,
      keyId: company.principal.keyId,
      ...place,
    };
    writeFileSync(output, JSON.stringify(created));
    return;
  }
  if (task.kind === 'sequence') {
    const { runSequencerCycle } = await import('../../lambdas/domain/ledger/sequencer.js');
    const { localSigner } = await import('../../lambdas/domain/ledger/log-signer.js');
    const signer = localSigner('bench.example/log', join(dirname(output), 'log-signing-key.pem'));
    while (!(await runSequencerCycle({ signer, leaseMs: 60_000 })).caughtUp) {
      // the next batch
    }
    writeFileSync(output, JSON.stringify({}));
    return;
  }
  if (task.kind === 'export' || task.kind === 'export-as-of') process.env.EXPORT_INLINE_MAX_BYTES = '0';
  // Loaded after the environment is complete (the clients read it on load).
  const { dynamoDbClient } = await import('../../lambdas/shared/clients.js');
  const { installDynamoDbMeter } = await import('../support/dynamodb-meter.js');
  const { settleBackgroundJobs } = await import('../../lambdas/shared/background-jobs.js');
  // The jobs run in this process (LOCAL_BACKGROUND_JOBS=inline), as under `npm start`.
  const { runBackgroundJobsInProcess } = await import('../../local/in-process-jobs.js');
  runBackgroundJobsInProcess();
  const { COMPANY_PERMISSIONS } = await import('../../lambdas/shared/principal.js');
  const { createImport, getImport } = await import('../../lambdas/domain/imports/import-service.js');
  const { exportObjects, getExport } = await import('../../lambdas/domain/exports/export-service.js');
  // The job handlers too, so that loading them is not counted as the job's memory.
  await import('../../lambdas/jobs/import-objects.js');
  await import('../../lambdas/jobs/export-objects.js');
  const { CallRecorder } = await import('../support/call-recorder.js');
  const { percentile } = await import('../support/statistics.js');
  // Only each call's duration is kept (a recorder keeps the inputs, which would be the job's memory).
  const durations: Record<string, number[]> = {};
  const timer = {
    begin: (_client: string, command: string) => {
      const started = performance.now();
      return () => {
        durations[command] ??= [];
        durations[command].push(performance.now() - started);
      };
    },
  } as unknown as InstanceType<typeof CallRecorder>;
  const meter = installDynamoDbMeter(dynamoDbClient, timer);
  const sampler = new MemorySampler();
  const principal = {
    type: 'company' as const,
    tenantId: task.companyId,
    keyId: task.keyId,
    permissions: new Set(COMPANY_PERMISSIONS),
  };

  let result: BulkChildResult;
  /** Read as soon as the job has settled: the reads of its state after it are the bench's. */
  const measured = () => {
    const reading = meter.read();
    return {
      memory: sampler.stop(),
      dynamoDbCalls: reading.calls,
      callMs: Object.fromEntries(
        Object.entries(durations).map(([command, samples]) => [
          command,
          {
            median: Math.round(percentile(samples, 0.5) * 10) / 10,
            p95: Math.round(percentile(samples, 0.95) * 10) / 10,
          },
        ]),
      ),
      callsByCommand: reading.callsByCommand,
      failedCalls: reading.failedCalls,
    };
  };
  if (task.kind === 'import' || task.kind === 'update') {
    const update = task.kind === 'update';
    let file: Buffer | undefined = csvFile(
      task.rows,
      task.companyId.slice(0, 8),
      update ? 'Depot' : undefined,
    );
    const fileBytes = file.length;
    gc();
    meter.reset();
    const calledAt = new Date().toISOString();
    const started = process.hrtime.bigint();
    const view = await createImport(
      principal,
      {
        mode: update ? 'upsert' : 'create',
        createMissing: false,
        categoryId: task.categoryId,
        subcategoryId: task.subcategoryId,
        fileName: `bench-${task.rows}.csv`,
      },
      { content: file, fileName: `bench-${task.rows}.csv`, mimeType: 'text/csv' },
      '',
    );
    file = undefined;
    sampler.start();
    // A line a minute on stderr (the bench shows it): rows counted so far, one UpdateItem of the
    // job's progress per 100 rows (after the one that records the file's total).
    const began = Date.now();
    const progress = setInterval(() => {
      const rows = Math.max(0, (durations.UpdateItem?.length ?? 0) - 1) * 100;
      const seconds = (Date.now() - began) / 1000;
      console.error(
        `about ${rows.toLocaleString('en-US')} rows counted in ${seconds.toFixed(0)} s, RSS ${mb(process.memoryUsage().rss)} MB`,
      );
    }, 60_000);
    await settleBackgroundJobs();
    clearInterval(progress);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const settledAt = new Date().toISOString();
    const figures = measured();
    const job = await getImport(task.companyId, view.id, '');
    result = {
      kind: task.kind,
      format: 'csv',
      rows: task.rows,
      fileBytes,
      seconds,
      status: job.status,
      counts: { ...job.counts },
      times: {
        createdAt: job.createdAt,
        startedAt: job.startedAt,
        completedAt: job.completedAt,
        updatedAt: job.updatedAt,
      },
      calledAt,
      settledAt,
      ...figures,
    };
  } else {
    meter.reset();
    sampler.start();
    const calledAt = new Date().toISOString();
    const started = process.hrtime.bigint();
    const response = await exportObjects(
      task.companyId,
      {
        format: task.proofs ? 'jsonl' : 'csv',
        status: 'active',
        sort: 'createdAt:desc',
        ...(task.asOf ? { asOf: task.asOf } : {}),
        ...(task.proofs ? { proofs: true } : {}),
      } as Parameters<typeof exportObjects>[1],
      '',
    );
    if (!('job' in response)) throw new Error('the export was returned inline; expected the background job');
    await settleBackgroundJobs();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const settledAt = new Date().toISOString();
    const figures = measured();
    const job = await getExport(task.companyId, response.job.id);
    result = {
      kind: task.kind as 'export' | 'export-as-of',
      format: task.proofs ? 'jsonl' : 'csv',
      rows: job.rowCount ?? 0,
      fileBytes: job.size ?? 0,
      seconds,
      status: job.status,
      counts: { rows: job.rowCount ?? 0 },
      times: { createdAt: job.createdAt, completedAt: job.completedAt },
      calledAt,
      settledAt,
      ...figures,
    };
  }
  writeFileSync(output, JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
