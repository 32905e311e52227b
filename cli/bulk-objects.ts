/**
 * The admin CLI's `import` and `export`: a company's objects in bulk from a terminal, through
 * the same domain code as `POST /v2/imports` and `GET /v2/objects/export`. Both run their job
 * in this process (as `npm start` runs background jobs), whichever stack the CLI is connected
 * to, and both keep memory bounded: the import reads the file from the bucket as the job does,
 * the export streams from the bucket into the file.
 * On a terminal both show their progress on stderr (`progress.ts`); stdout is the same either way.
 * Call after `connectToStack()`: the modules are loaded here, once the environment is set.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportCommand, ImportCommand } from './admin-arguments.js';
import { pollWhile, progressReporter } from './progress.js';

/** The key id recorded as the actor (`apiKey:admin-cli`) of the events an import writes. */
const CLI_KEY_ID = 'admin-cli';
/** Error entries printed with an import's counts; the rest are read with `GET <errorsPath>`. */
const ERRORS_PRINTED_MAX = 1000;

async function ensureCompany(companyId: string): Promise<void> {
  const { tenantExists } = await import('../lambdas/domain/identity/tenants.js');
  if (!(await tenantExists('company', companyId))) throw new Error(`No company ${companyId}`);
}

async function readImportFile(path: string, maxBytes: number): Promise<Buffer> {
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(`Cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`);
  }
  if (content.length > maxBytes) {
    throw new Error(`${path} has ${content.length} bytes; an import file may have ${maxBytes} (50 MB)`);
  }
  return content;
}

/** Makes the jobs this command starts run in its own process (read when a job starts). */
async function runJobsHere(): Promise<void> {
  process.env.LOCAL_BACKGROUND_JOBS = 'inline';
  const { runBackgroundJobsInProcess } = await import('../local/in-process-jobs.js');
  runBackgroundJobsInProcess();
}

/**
 * Creates the import job as `POST /v2/imports` does, runs it to its end here and returns its
 * counts and error entries (up to {@link ERRORS_PRINTED_MAX}).
 */
export async function importCompanyObjects(request: ImportCommand): Promise<Record<string, unknown>> {
  // The job's run goes in this process, not to a Lambda function.
  await runJobsHere();
  const [
    { createImport, getImport },
    { runImport },
    pace,
    { IMPORT_UPLOAD_MAX_BYTES },
    repository,
    store,
    jobs,
    principals,
  ] = await Promise.all([
    import('../lambdas/domain/imports/import-service.js'),
    import('../lambdas/domain/imports/import-runner.js'),
    import('../lambdas/domain/imports/import-pace.js'),
    import('../lambdas/domain/imports/import-schemas.js'),
    import('../lambdas/repositories/import-repository.js'),
    import('../lambdas/repositories/file-store.js'),
    import('../lambdas/shared/background-jobs.js'),
    import('../lambdas/shared/principal.js'),
  ]);
  // At the pace the stack gives the import function: a company's imports keep to it however
  // they are started.
  process.env[pace.IMPORT_ROWS_PER_SECOND_ENVIRONMENT] ??= String(pace.DEFAULT_IMPORT_ROWS_PER_SECOND);
  const content = await readImportFile(request.file, IMPORT_UPLOAD_MAX_BYTES);
  const { companyId } = request;
  await ensureCompany(companyId);
  const fileName = basename(request.file);
  const created = await createImport(
    {
      type: 'company',
      tenantId: companyId,
      keyId: CLI_KEY_ID,
      permissions: new Set(principals.COMPANY_PERMISSIONS),
    },
    {
      mode: request.mode,
      format: request.format,
      categoryId: request.categoryId,
      subcategoryId: request.subcategoryId,
      createMissing: request.createMissing,
      fileName,
    },
    { content, fileName },
    '',
  );
  const progress = progressReporter({ label: 'import' });
  /** The job's counts as the progress line shows them: every row counted so far. */
  const progressOf = (counts: typeof created.counts) => ({
    rows: counts.created + counts.updated + counts.skipped + counts.failed,
    totalRows: counts.total,
    failedRows: counts.failed,
  });
  await pollWhile(jobs.settleBackgroundJobs(), async () => {
    if (!progress.shown) return;
    // A failed read costs one update, not the import.
    const running = await getImport(companyId, created.id, '').catch(() => undefined);
    if (running) progress.update(progressOf(running.counts));
  });
  let job = await getImport(companyId, created.id, '');
  if (job.status === 'running') {
    // The run failed (it logged why): one more run resumes the job where it stopped, and a
    // failure that lasts reaches the exit code.
    await runImport(
      companyId,
      created.id,
      (record) => store.openFileStream(record.sourceKey),
      undefined,
      pace.importPace(companyId, pace.rowsPerSecondFromEnvironment()),
    );
    job = await getImport(companyId, created.id, '');
  }
  progress.finish(progressOf(job.counts));
  if (job.status === 'failed') {
    throw new Error(`Import ${job.id} failed: ${job.error?.code}: ${job.error?.message}`);
  }
  const errors: Awaited<ReturnType<typeof repository.listImportErrors>>['records'] = [];
  let startAfter: Record<string, unknown> | undefined;
  do {
    const page = await repository.listImportErrors(companyId, job.id, {
      offset: 0,
      limit: Math.min(100, ERRORS_PRINTED_MAX - errors.length),
      startAfter,
    });
    errors.push(...page.records);
    startAfter = page.records.length > 0 ? page.lastKey : undefined;
  } while (startAfter && errors.length < ERRORS_PRINTED_MAX);
  return {
    importId: job.id,
    status: job.status,
    counts: job.counts,
    errorCount: job.errorCount,
    ignoredColumns: job.ignoredColumns,
    errors,
    errorsPath: job.errorsPath,
  };
}

async function writeToStdout(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const chunk of body) {
    if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
  }
}

/**
 * Exports the company's matching objects as `GET /v2/objects/export` does, always by way of its
 * background job (run here), whose file is then streamed from the bucket to `out` or stdout.
 */
export async function exportCompanyObjects(
  request: ExportCommand,
): Promise<Record<string, unknown> | undefined> {
  await runJobsHere();
  // Never the whole export in memory: any export with a row becomes the job that streams it.
  process.env.EXPORT_INLINE_MAX_BYTES = '0';
  const [{ exportObjects, getExport }, { exportResultKey }, store, jobs] = await Promise.all([
    import('../lambdas/domain/exports/export-service.js'),
    import('../lambdas/repositories/file-repository.js'),
    import('../lambdas/repositories/file-store.js'),
    import('../lambdas/shared/background-jobs.js'),
  ]);
  const { companyId, format } = request;
  await ensureCompany(companyId);
  // The job records its rows only when done: until then the line shows the time, then the bytes.
  // Not while the file itself goes to the terminal: the two would mix.
  const fileToTerminal = request.out === undefined && process.stdout.isTTY === true;
  const progress = progressReporter({
    label: 'export',
    stream: fileToTerminal ? { write: () => true } : undefined,
  });
  const response = await exportObjects(companyId, { ...request.filters, format }, '');
  let body: Readable;
  let exportId: string | null = null;
  let rowCount = 0;
  if ('file' in response) {
    // Nothing matched: the header alone (CSV), or nothing (JSON Lines).
    const { Readable } = await import('node:stream');
    body = Readable.from([response.file]);
  } else {
    await pollWhile(jobs.settleBackgroundJobs(), async () => progress.update({}));
    const job = await getExport(companyId, response.job.id);
    if (job.status !== 'completed') throw new Error(`Export ${job.id} failed: ${job.error ?? job.status}`);
    exportId = job.id;
    rowCount = job.rowCount ?? 0;
    body = await store.openFileStream(exportResultKey(companyId, job.id));
  }
  let bytes = 0;
  async function* counted(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      bytes += chunk.length;
      progress.update({ bytes });
      yield chunk;
    }
  }
  if (request.out === undefined) await writeToStdout(counted(body));
  else await pipeline(body, counted, createWriteStream(request.out));
  progress.finish({ rows: rowCount, bytes });
  if (request.out === undefined) return undefined;
  return { exportId, file: resolve(request.out), format, rowCount, bytes: (await stat(request.out)).size };
}
