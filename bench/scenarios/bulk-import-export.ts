/**
 * Bulk import and export (issue 16): for each size, a company with one subcategory imports a
 * CSV of that many rows (create mode) and then exports its objects as CSV. Then (issue 25) an
 * upsert import changes the owner of a tenth of them, and the export as of the instant before
 * that change (`asOf`) rebuilds those from their ledger events. Each job runs in a
 * child process of its own (`bulk-job-child.ts`) through the real code: `createImport` and the
 * import job (`runImport`), `exportObjects` and the export job (`runExport`). Figures: rows a
 * second, the job process's peak memory, and DynamoDB calls per row (an SDK middleware on the
 * child's shared client).
 *
 * The section starts an embedded stack of its own (DynamoDB Local and s3rver, empty): DynamoDB
 * Local slows down as its tables and streams fill (after a few thousand imported rows, the
 * transparency log section's writes on the shared stack took 10-20 times longer), so the figures
 * here do not depend on what earlier sections wrote, nor theirs on these 100,000 rows.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStack } from '../../local/embedded-stack';
import { describeCommands } from '../support/dynamodb-meter';
import { round } from '../support/statistics';
import type { BulkChildResult, BulkChildTask, BulkCompany } from './bulk-job-child';

export interface BulkRow {
  job: 'import' | 'export' | 'export as of' | 'export as of, with proofs';
  format: 'CSV' | 'JSON Lines';
  rows: number;
  fileMb: number;
  seconds: number;
  rowsPerSecond: number;
  status: string;
  /** Import: created / skipped / failed. Export: rows written. */
  outcome: string;
  dynamoDbCalls: number;
  dynamoDbCallsPerRow: number;
  commands: string;
  /** The call that bounds the pace (import: TransactWriteItems; export: Query), median and p95 ms. */
  mainCall: string;
  failedCalls: number;
  rssBeforeMb: number;
  peakRssMb: number;
  vmHwmMb: number;
  medianRssMb: number;
  heapUsedBeforeMb: number;
  medianHeapUsedMb: number;
  peakHeapUsedMb: number;
  peakHeapTotalMb: number;
  peakExternalMb: number;
  memorySamples: number;
  /** One-minute load average when the job started and when it ended. */
  loadAverage: string;
}

const CHILD = join(__dirname, 'bulk-job-child.ts');

function runChild<Result = BulkChildResult>(
  task: BulkChildTask,
  scratch: string,
  environment: Record<string, string>,
): Promise<Result> {
  const output = join(scratch, `${task.kind}-${task.rows}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', CHILD, JSON.stringify(task), output],
      {
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, ...environment },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    // Its progress lines are shown as they come; the last lines are kept for a failure.
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-8000);
      for (const line of text.split('\n')) if (line.startsWith('about ')) console.log(`     ${line}`);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) {
        reject(
          new Error(`${task.kind} of ${task.rows} rows: exit ${code ?? signal}\n${stderr.slice(-4000)}`),
        );
        return;
      }
      const result = JSON.parse(readFileSync(output, 'utf8')) as BulkChildResult;
      if (process.env.BENCH_BULK_TRACE === '1' && task.kind !== 'setup')
        console.log(
          JSON.stringify({
            calledAt: result.calledAt,
            settledAt: result.settledAt,
            ...result.times,
            callMs: result.callMs,
          }),
        );
      resolve(result as Result);
    });
  });
}

const loadNow = () => (loadavg()[0] ?? 0).toFixed(1);

function toRow(result: BulkChildResult, loadAverage: string): BulkRow {
  const { memory } = result;
  const outcome =
    result.kind === 'import' || result.kind === 'update'
      ? `${result.counts.created ?? 0} created, ${result.counts.skipped ?? 0} skipped, ${result.counts.failed ?? 0} failed`
      : `${result.counts.rows ?? 0} rows`;
  return {
    job:
      result.kind === 'export-as-of'
        ? result.format === 'jsonl'
          ? 'export as of, with proofs'
          : 'export as of'
        : result.kind === 'export'
          ? 'export'
          : 'import',
    format: result.format === 'jsonl' ? 'JSON Lines' : 'CSV',
    rows: result.rows,
    fileMb: round(result.fileBytes / (1024 * 1024), 1),
    seconds: round(result.seconds, 1),
    rowsPerSecond: round(result.rows / result.seconds, 0),
    status: result.status,
    outcome,
    dynamoDbCalls: result.dynamoDbCalls,
    dynamoDbCallsPerRow: round(result.dynamoDbCalls / result.rows, 3),
    commands: describeCommands(result.callsByCommand),
    mainCall: ((command) =>
      `${command} ${result.callMs[command]?.median ?? '—'} / ${result.callMs[command]?.p95 ?? '—'}`)(
      result.kind === 'import' || result.kind === 'update' ? 'TransactWriteItems' : 'Query',
    ),
    failedCalls: result.failedCalls,
    rssBeforeMb: memory.rssBeforeMb,
    peakRssMb: memory.peakRssMb,
    vmHwmMb: memory.vmHwmMb,
    medianRssMb: memory.medianRssMb,
    heapUsedBeforeMb: memory.heapUsedBeforeMb,
    medianHeapUsedMb: memory.medianHeapUsedMb,
    peakHeapUsedMb: memory.peakHeapUsedMb,
    peakHeapTotalMb: memory.peakHeapTotalMb,
    peakExternalMb: memory.peakExternalMb,
    memorySamples: memory.samples,
    loadAverage,
  };
}

async function companyTask(
  size: number,
  scratch: string,
  environment: Record<string, string>,
): Promise<Omit<BulkChildTask, 'kind'>> {
  const blank = { companyId: '', keyId: '', categoryId: '', subcategoryId: '', rows: size };
  const company = await runChild<BulkCompany>({ ...blank, kind: 'setup' }, scratch, environment);
  return { ...company, rows: size };
}

/** The share of the objects changed after the as-of instant (each then replayed from its events). */
const CHANGED_AFTER_SHARE = 0.1;

export async function runBulkImportExport(options: {
  sizes: number[];
  /** Rows of an import and export run first and not reported: DynamoDB Local's JIT warms up. */
  warmupRows: number;
}): Promise<BulkRow[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'asset-registry-bench-bulk-'));
  const stack = await startEmbeddedStack({ s3Directory: join(scratch, 's3') });
  const { environment } = stack;
  const rows: BulkRow[] = [];
  try {
    if (options.warmupRows > 0) {
      const warmup = await companyTask(options.warmupRows, scratch, environment);
      console.log(`   warm-up: import and export of ${options.warmupRows} rows, not reported`);
      await runChild({ ...warmup, kind: 'import' }, scratch, environment);
      await runChild({ ...warmup, kind: 'export' }, scratch, environment);
    }
    for (const size of options.sizes) {
      const task = await companyTask(size, scratch, environment);
      for (const kind of ['import', 'export'] as const) {
        const loadBefore = loadNow();
        console.log(`   ${kind} of ${size.toLocaleString('en-US')} rows (load average ${loadBefore})`);
        const result = await runChild({ ...task, kind }, scratch, environment);
        const row = toRow(result, `${loadBefore} → ${loadNow()}`);
        console.log(
          `   ${row.rowsPerSecond} rows/s, ${row.seconds} s, RSS median ${row.medianRssMb} MB, peak ${row.peakRssMb} MB (VmHWM ${row.vmHwmMb}), heap used median ${row.medianHeapUsedMb} MB, peak ${row.peakHeapUsedMb} MB, ${row.outcome}`,
        );
        if (result.status !== 'completed' || (kind === 'export' && result.rows !== size)) {
          throw new Error(`${kind} of ${size} rows ended ${result.status} with ${row.outcome}`);
        }
        rows.push(row);
      }
      // The instant, then a tenth of the objects changed after it: those are replayed, the
      // others are their stored state (updatedAt <= asOf).
      const asOf = new Date().toISOString();
      const changed = Math.round(size * CHANGED_AFTER_SHARE);
      console.log(`   update of ${changed.toLocaleString('en-US')} rows after the instant (not reported)`);
      const update = await runChild({ ...task, rows: changed, kind: 'update' }, scratch, environment);
      if (update.status !== 'completed')
        throw new Error(`the update of ${changed} rows ended ${update.status}`);
      const loadBefore = loadNow();
      console.log(
        `   export as of ${asOf} of ${size.toLocaleString('en-US')} rows (load average ${loadBefore})`,
      );
      const result = await runChild({ ...task, asOf, kind: 'export-as-of' }, scratch, environment);
      const row = toRow(result, `${loadBefore} → ${loadNow()}`);
      row.outcome = `${result.rows} rows, ${changed} replayed`;
      console.log(
        `   ${row.rowsPerSecond} rows/s, ${row.seconds} s, RSS median ${row.medianRssMb} MB, peak ${row.peakRssMb} MB (VmHWM ${row.vmHwmMb}), ${row.outcome}`,
      );
      if (result.status !== 'completed' || result.rows !== size) {
        throw new Error(`export as of ${asOf} of ${size} rows ended ${result.status} with ${row.outcome}`);
      }
      rows.push(row);
      // The same as an inventory with proofs, once the sequencer has logged every event (not measured).
      const sequencing = Date.now();
      await runChild({ ...task, kind: 'sequence' }, scratch, environment);
      console.log(
        `   sequenced every event so far in ${Math.round((Date.now() - sequencing) / 1000)} s (not reported)`,
      );
      const proofsLoad = loadNow();
      const proven = await runChild(
        { ...task, asOf, proofs: true, kind: 'export-as-of' },
        scratch,
        environment,
      );
      const provenRow = toRow(proven, `${proofsLoad} → ${loadNow()}`);
      provenRow.outcome = `${proven.rows} rows, ${changed} replayed`;
      console.log(
        `   with proofs: ${provenRow.rowsPerSecond} rows/s, ${provenRow.seconds} s, RSS median ${provenRow.medianRssMb} MB, peak ${provenRow.peakRssMb} MB, ${provenRow.outcome}`,
      );
      if (proven.status !== 'completed' || proven.rows !== size) {
        throw new Error(`export as of ${asOf} with proofs ended ${proven.status} with ${provenRow.outcome}`);
      }
      rows.push(provenRow);
    }
    return rows;
  } finally {
    await stack.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
