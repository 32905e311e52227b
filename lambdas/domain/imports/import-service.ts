/**
 * Import jobs (extension): `POST /v2/imports` takes a CSV or JSON Lines file, in the request
 * (multipart `file` part, or the whole body as `text/csv` or `application/x-ndjson`) or
 * through a presigned upload for files up to 50 MB, and responds 202 with the job; the rows
 * are written in the background (`import-runner.ts`). Status, counts and error entries are
 * read back with the other operations here.
 */
import { importSourceKey } from '#repositories/file-repository.js';
import { presignedUploadPost, putFileBytes, storedFile } from '#repositories/file-store.js';
import {
  findImportJob,
  type ImportJobRecord,
  insertImportJob,
  insertImportJobItem,
  listImportErrors as listImportErrorRecords,
  listImportJobs,
  startImportJobItem,
} from '#repositories/import-repository.js';
import { startBackgroundJob } from '#shared/background-jobs.js';
import { nowIso } from '#shared/clock.js';
import { BadRequestError, ConflictError, NotFoundError } from '#shared/errors.js';
import { type CursorPage, type PageScope, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import type { PageRequest } from '#shared/pagination.js';
import { type Principal, performedByOf } from '#shared/principal.js';
import { timeOrderedId } from '#shared/time-ordered-id.js';
import { csvText } from '../exports/export-format.js';
import { startWithJobSlot } from '../job-slots.js';
import type { ImportFormat } from './import-job.js';
import { IMPORT_BODY_TYPES, IMPORT_UPLOAD_MAX_BYTES, type importOptionsOf } from './import-schemas.js';
import {
  type ImportErrorView,
  type ImportUploadView,
  type ImportView,
  toImportErrorView,
  toImportView,
} from './import-view.js';

type ImportOptions = ReturnType<typeof importOptionsOf>;

/** How long a presigned import upload stays valid. */
const IMPORT_UPLOAD_SECONDS = 900;
/** Error entries in one CSV download: what fits a Lambda response. */
const IMPORT_ERRORS_CSV_MAX = 40_000;

export interface ImportFile {
  content: Buffer;
  fileName?: string;
  mimeType?: string;
}

const importNotFound = (importId: string) =>
  new NotFoundError('IMPORT_NOT_FOUND', `No import ${importId} in this company`);

const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase();

/** The format asked for, else the one the content type or the file name says, else CSV. */
function importFormatOf(asked: ImportFormat | undefined, file: Omit<ImportFile, 'content'>): ImportFormat {
  if (asked) return asked;
  const byType = IMPORT_BODY_TYPES[mediaTypeOf(file.mimeType) as keyof typeof IMPORT_BODY_TYPES];
  if (byType) return byType;
  return /\.(jsonl|ndjson)$/i.test(file.fileName ?? '') ? 'jsonl' : 'csv';
}

function newJob(principal: Principal, options: ImportOptions, format: ImportFormat): ImportJobRecord {
  const id = timeOrderedId();
  const createdAt = nowIso();
  return {
    id,
    companyId: principal.tenantId,
    status: 'pending',
    format,
    mode: options.mode,
    fileName: options.fileName ?? null,
    sourceKey: importSourceKey(principal.tenantId, id),
    defaultCategoryId: options.categoryId ?? null,
    defaultSubcategoryId: options.subcategoryId ?? null,
    createMissing: options.createMissing,
    performedBy: performedByOf(principal, options.performedBy),
    principal: { type: principal.type, keyId: principal.keyId, permissions: [...principal.permissions] },
    person: principal.person ? { principal: principal.person.principal, role: principal.person.role } : null,
    counts: { total: 0, created: 0, updated: 0, skipped: 0, failed: 0 },
    errorCount: 0,
    nextIndex: 0,
    ignoredColumns: [],
    error: null,
    createdAt,
    updatedAt: createdAt,
    startedAt: null,
    completedAt: null,
    uploadExpiresAt: null,
  };
}

/** Creates a job for a file sent in the request and starts it. */
export async function createImport(
  principal: Principal,
  options: ImportOptions,
  file: ImportFile,
  pathPrefix: string,
): Promise<ImportView> {
  if (file.content.length === 0) throw new BadRequestError('FILE_REQUIRED', 'The import file is empty');
  const job = newJob(
    principal,
    { ...options, fileName: options.fileName ?? (file.fileName || undefined) },
    importFormatOf(options.format, file),
  );
  await putFileBytes(job.sourceKey, file.content, job.format === 'csv' ? 'text/csv' : 'application/x-ndjson');
  const running: ImportJobRecord = { ...job, status: 'running' };
  // Refused with 409 TOO_MANY_JOBS past the company's cap of running imports.
  await startWithJobSlot(job.companyId, 'imports', job.id, [insertImportJobItem(running)]);
  await startBackgroundJob('importObjects', { companyId: job.companyId, jobId: job.id });
  return toImportView(running, pathPrefix);
}

/** Creates a job whose file comes by presigned upload; `POST .../start` starts it. */
export async function createImportUpload(
  principal: Principal,
  options: ImportOptions & { size: number },
  pathPrefix: string,
): Promise<ImportView & { upload: ImportUploadView }> {
  const job = newJob(principal, options, importFormatOf(options.format, { fileName: options.fileName }));
  const expiresAt = new Date(Date.now() + IMPORT_UPLOAD_SECONDS * 1000).toISOString();
  const contentType = job.format === 'csv' ? 'text/csv' : 'application/x-ndjson';
  const post = await presignedUploadPost(
    job.sourceKey,
    { contentType, size: options.size },
    IMPORT_UPLOAD_SECONDS,
  );
  const pending: ImportJobRecord = { ...job, uploadExpiresAt: expiresAt };
  await insertImportJob(pending);
  return {
    ...toImportView(pending, pathPrefix),
    upload: {
      method: 'POST',
      url: post.url,
      fields: post.fields,
      expiresAt,
      maxBytes: IMPORT_UPLOAD_MAX_BYTES,
      startPath: `${pathPrefix}/v2/imports/${job.id}/start`,
    },
  };
}

/** Starts a job whose file was uploaded. */
export async function startImport(
  principal: Principal,
  importId: string,
  pathPrefix: string,
): Promise<ImportView> {
  const job = await findImportJob(principal.tenantId, importId);
  if (!job) throw importNotFound(importId);
  if (job.status !== 'pending') {
    throw new ConflictError('IMPORT_ALREADY_STARTED', `Import ${importId} is ${job.status} already`);
  }
  const stored = await storedFile(job.sourceKey);
  if (!stored) {
    throw new ConflictError(
      'UPLOAD_NOT_RECEIVED',
      'The file has not been uploaded to the presigned address yet',
    );
  }
  if (stored.size > IMPORT_UPLOAD_MAX_BYTES) {
    throw new BadRequestError(
      'FILE_TOO_LARGE',
      `The file is larger than ${IMPORT_UPLOAD_MAX_BYTES} bytes (50 MB)`,
    );
  }
  // A pending job holds no slot: it takes one as it starts, refused past the company's cap.
  await startWithJobSlot(principal.tenantId, 'imports', importId, [
    {
      item: startImportJobItem(principal.tenantId, importId, nowIso()),
      onConditionFailed: () =>
        new ConflictError('IMPORT_ALREADY_STARTED', `Import ${importId} was started already`),
    },
  ]);
  await startBackgroundJob('importObjects', { companyId: principal.tenantId, jobId: importId });
  return toImportView({ ...job, status: 'running' }, pathPrefix);
}

export async function getImport(
  companyId: string,
  importId: string,
  pathPrefix: string,
): Promise<ImportView> {
  const job = await findImportJob(companyId, importId);
  if (!job) throw importNotFound(importId);
  return toImportView(job, pathPrefix);
}

/** The company's import jobs, newest first. */
export async function listImports(
  companyId: string,
  query: PageRequest & { cursor?: string },
  pathPrefix: string,
): Promise<CursorPage<ImportView>> {
  const scope: PageScope = { tenantId: companyId, list: 'imports' };
  const position = await pagePositionOf(query, scope);
  const { records, total, lastKey } = await listImportJobs(companyId, position);
  return toCursorPage(
    records.map((record) => toImportView(record, pathPrefix)),
    position,
    total,
    scope,
    lastKey,
  );
}

/** A page of a job's error entries, in row order. */
export async function listImportErrors(
  companyId: string,
  importId: string,
  query: PageRequest & { cursor?: string },
): Promise<CursorPage<ImportErrorView>> {
  const scope: PageScope = { tenantId: companyId, list: `importErrors:${importId}` };
  const position = await pagePositionOf(query, scope);
  const job = await findImportJob(companyId, importId);
  if (!job) throw importNotFound(importId);
  const { records, lastKey } = await listImportErrorRecords(companyId, importId, position);
  return toCursorPage(records.map(toImportErrorView), position, job.errorCount, scope, lastKey);
}

const IMPORT_ERROR_COLUMNS = ['row', 'field', 'code', 'message', 'outcome'] as const;

/** Every error entry of a job as CSV (RFC 4180), up to {@link IMPORT_ERRORS_CSV_MAX}. */
export async function importErrorsCsv(companyId: string, importId: string): Promise<Buffer> {
  const job = await findImportJob(companyId, importId);
  if (!job) throw importNotFound(importId);
  const chunks = [csvText([[...IMPORT_ERROR_COLUMNS]])];
  let startAfter: Record<string, unknown> | undefined;
  let written = 0;
  do {
    const page = await listImportErrorRecords(companyId, importId, {
      offset: 0,
      limit: Math.min(1000, IMPORT_ERRORS_CSV_MAX - written),
      startAfter,
    });
    chunks.push(
      csvText(page.records.map((error) => IMPORT_ERROR_COLUMNS.map((column) => String(error[column])))),
    );
    written += page.records.length;
    startAfter = page.records.length > 0 ? page.lastKey : undefined;
  } while (startAfter && written < IMPORT_ERRORS_CSV_MAX);
  return Buffer.from(chunks.join(''), 'utf8');
}
