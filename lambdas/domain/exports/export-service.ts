/**
 * Export of a company's objects (extension): `GET /v2/objects/export?format=csv|jsonl` with the
 * filters and sort of spec 4.1 walks the list's index one page at a time (`walkObjects`), so
 * memory stays bounded whatever the count. An export that fits a Lambda response is the response
 * itself; a larger one becomes a background job that streams the file into S3, and
 * `GET /v2/exports/{id}` gives its presigned link when it is done.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import {
  type ExportJobRecord,
  findExportJob,
  finishExportJob,
  insertExportJobItem,
} from '#repositories/export-repository.js';
import { exportResultKey } from '#repositories/file-repository.js';
import { presignedDownloadUrl, streamFileBytes } from '#repositories/file-store.js';
import type { ObjectRecord } from '#repositories/object-repository.js';
import { findCategoryWithSubcategories } from '#repositories/subcategory-repository.js';
import { startBackgroundJob } from '#shared/background-jobs.js';
import { nowIso } from '#shared/clock.js';
import { NotFoundError } from '#shared/errors.js';
import type { Infer } from '#shared/schema.js';
import { timeOrderedId } from '#shared/time-ordered-id.js';
import { startWithJobSlot } from '../job-slots.js';
import { matchingObjects } from '../objects/object-service.js';
import { toObjectView } from '../objects/object-view.js';
import { EXPORT_CONTENT_TYPES, type ExportedObject, exportHeader, exportLines } from './export-format.js';
import { EXPORT_INLINE_MAX_BYTES, EXPORT_INLINE_MAX_BYTES_ENVIRONMENT } from './export-inline-limit.js';
import type { exportObjectsQuery } from './export-schemas.js';
import { type ExportView, exportJobView } from './export-view.js';

export type ExportQuery = Infer<typeof exportObjectsQuery.shape>;

/** How long an export's presigned link stays valid. */
const EXPORT_LINK_SECONDS = 900;

const inlineMaxBytes = () =>
  Number(process.env[EXPORT_INLINE_MAX_BYTES_ENVIRONMENT] ?? EXPORT_INLINE_MAX_BYTES);

/** The filters and sort as text, the way a job keeps them. */
function parametersOf(query: ExportQuery): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );
}

/** The matching objects page by page, with their category's and subcategory's names. */
async function* exportedPages(companyId: string, query: ExportQuery): AsyncGenerator<ExportedObject[]> {
  const names = new Map<string, string>();
  const withNames = async (records: ObjectRecord[]) => {
    const objects: ExportedObject[] = [];
    for (const record of records) {
      if (!names.has(record.categoryId)) {
        const { category, subcategories } = await findCategoryWithSubcategories(companyId, record.categoryId);
        if (category) names.set(category.id, category.name);
        for (const subcategory of subcategories) names.set(subcategory.id, subcategory.name);
      }
      objects.push({
        ...toObjectView(record),
        category: names.get(record.categoryId) ?? null,
        subcategory: names.get(record.subcategoryId) ?? null,
      });
    }
    return objects;
  };
  for await (const records of matchingObjects(companyId, query)) yield await withNames(records);
}

export type ExportResponse =
  | { file: Buffer; contentType: string; fileName: string }
  | { job: ExportView; location: string };

const fileNameOf = (format: ExportQuery['format'], at: string) => `objects-${at.slice(0, 10)}.${format}`;

/** The export itself when it fits a response; else the background job that writes it. */
export async function exportObjects(
  companyId: string,
  query: ExportQuery,
  pathPrefix: string,
): Promise<ExportResponse> {
  const parts = [Buffer.from(exportHeader(query.format), 'utf8')];
  let size = parts[0]!.length;
  for await (const objects of exportedPages(companyId, query)) {
    const bytes = Buffer.from(exportLines(query.format, objects), 'utf8');
    size += bytes.length;
    if (size > inlineMaxBytes()) return startExport(companyId, query, pathPrefix);
    parts.push(bytes);
  }
  return {
    file: Buffer.concat(parts),
    contentType: EXPORT_CONTENT_TYPES[query.format],
    fileName: fileNameOf(query.format, nowIso()),
  };
}

async function startExport(
  companyId: string,
  query: ExportQuery,
  pathPrefix: string,
): Promise<ExportResponse> {
  const id = timeOrderedId();
  const record: ExportJobRecord = {
    id,
    companyId,
    status: 'running',
    format: query.format,
    parameters: parametersOf(query),
    resultKey: exportResultKey(companyId, id),
    rowCount: null,
    size: null,
    error: null,
    createdAt: nowIso(),
    completedAt: null,
  };
  // Refused with 409 TOO_MANY_JOBS past the company's cap of running exports.
  await startWithJobSlot(companyId, 'exports', id, [insertExportJobItem(record)]);
  await startBackgroundJob('exportObjects', { companyId, jobId: id });
  return { job: await toExportView(record), location: `${pathPrefix}/v2/exports/${id}` };
}

/** The background job: streams the whole export into S3 (5 MB parts), then records it done. */
export async function runExport(companyId: string, exportId: string): Promise<void> {
  const record = await findExportJob(companyId, exportId);
  if (record?.status !== 'running') return;
  const query = { ...record.parameters } as unknown as ExportQuery;
  const body = new PassThrough();
  const upload = streamFileBytes(record.resultKey, body, EXPORT_CONTENT_TYPES[record.format]);
  let uploadError: unknown;
  upload.done.catch((error: unknown) => {
    uploadError = error;
  });
  let rowCount = 0;
  let size = 0;
  const write = async (text: string) => {
    size += Buffer.byteLength(text, 'utf8');
    if (!body.write(text)) await once(body, 'drain');
  };
  try {
    await write(exportHeader(record.format));
    for await (const objects of exportedPages(companyId, query)) {
      rowCount += objects.length;
      await write(exportLines(record.format, objects));
    }
    body.end();
    await upload.done;
  } catch (error) {
    body.destroy();
    await upload.abort();
    // When S3 refused a part, the writer only saw its stream cut (an AbortError): the upload's
    // own error says why.
    const cause = uploadError && (error as Error).name === 'AbortError' ? uploadError : error;
    await finishExportJob(companyId, exportId, {
      status: 'failed',
      rowCount: null,
      size: null,
      error: cause instanceof Error ? cause.message : String(cause),
      completedAt: nowIso(),
    });
    throw cause;
  }
  await finishExportJob(companyId, exportId, {
    status: 'completed',
    rowCount,
    size,
    error: null,
    completedAt: nowIso(),
  });
}

async function toExportView(record: ExportJobRecord): Promise<ExportView> {
  const done = record.status === 'completed';
  return exportJobView.toView(record, {
    url: done
      ? await presignedDownloadUrl(
          record.resultKey,
          {
            contentType: EXPORT_CONTENT_TYPES[record.format],
            contentDisposition: `attachment; filename="${fileNameOf(record.format, record.createdAt)}"`,
            cacheControl: 'private, no-store',
          },
          EXPORT_LINK_SECONDS,
        )
      : null,
    urlExpiresAt: done ? new Date(Date.now() + EXPORT_LINK_SECONDS * 1000).toISOString() : null,
  });
}

/** An export job of the company; 404 `EXPORT_NOT_FOUND` for unknown and other companies' ids. */
export async function getExport(companyId: string, exportId: string): Promise<ExportView> {
  const record = await findExportJob(companyId, exportId);
  if (!record) throw new NotFoundError('EXPORT_NOT_FOUND', `No export ${exportId} in this company`);
  return toExportView(record);
}
