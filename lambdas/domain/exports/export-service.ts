/**
 * Export of a company's objects (extension): `GET /v2/objects/export?format=csv|jsonl` with the
 * filters and sort of spec 4.1 walks the list's index one page at a time (`walkObjects`), so
 * memory stays bounded whatever the count. An export that fits a Lambda response is the response
 * itself; a larger one becomes a background job that streams the file into S3, and
 * `GET /v2/exports/{id}` gives its presigned link when it is done. With `asOf`, the objects as they
 * stood then, rebuilt from the ledger (`objectsAsOf`); with `proofs`, each row's inclusion proofs.
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
import { nowIso, storedInstant } from '#shared/clock.js';
import { NotFoundError, ValidationError } from '#shared/errors.js';
import type { Infer } from '#shared/schema.js';
import { timeOrderedId } from '#shared/time-ordered-id.js';
import { startWithJobSlot } from '../job-slots.js';
import { toEventView } from '../ledger/event-view.js';
import { type InventoryProver, inventoryProver } from '../ledger/inventory-proofs.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { objectChain } from '../objects/object-change.js';
import { matchingObjects } from '../objects/object-service.js';
import { toObjectView } from '../objects/object-view.js';
import { objectsAsOf } from '../objects/objects-as-of.js';
import {
  EXPORT_CONTENT_TYPES,
  type ExportedObject,
  exportHeader,
  exportLines,
  type ProvenEvent,
} from './export-format.js';
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

/**
 * The names of the company's categories and subcategories, read once per category met (the
 * read itself is kept, so that rows built side by side share it).
 */
function categoryNames(companyId: string) {
  const categories = new Map<string, Promise<Map<string, string>>>();
  const namesIn = (categoryId: string) => {
    let names = categories.get(categoryId);
    if (!names) {
      names = findCategoryWithSubcategories(companyId, categoryId).then(
        ({ category, subcategories }) =>
          new Map([
            ...(category ? [[category.id, category.name] as const] : []),
            ...subcategories.map((subcategory) => [subcategory.id, subcategory.name] as const),
          ]),
      );
      categories.set(categoryId, names);
    }
    return names;
  };
  return async (record: ObjectRecord) => {
    const names = await namesIn(record.categoryId);
    return {
      category: names.get(record.categoryId) ?? null,
      subcategory: names.get(record.subcategoryId) ?? null,
    };
  };
}

/** The matching objects page by page, with their category's and subcategory's names. */
async function* exportedPages(companyId: string, query: ExportQuery): AsyncGenerator<ExportedObject[]> {
  const namesOf = categoryNames(companyId);
  for await (const records of matchingObjects(companyId, query)) {
    const objects: ExportedObject[] = [];
    for (const record of records) objects.push({ ...toObjectView(record), ...(await namesOf(record)) });
    yield objects;
  }
}

/**
 * The objects as they stood at `asOf`, page by page (`objectsAsOf`), each with the event that
 * set its state and, with `proofs`, that event's and the next event's inclusion proofs.
 */
async function* exportedPagesAsOf(
  companyId: string,
  query: ExportQuery,
  asOf: string,
  prover: InventoryProver | undefined,
): AsyncGenerator<ExportedObject[]> {
  const namesOf = categoryNames(companyId);
  for await (const states of objectsAsOf(companyId, query, asOf, prover !== undefined)) {
    // Every proof of the page at once: one BatchGetItem of log positions per 100 events.
    const proven = states.flatMap(({ record, setBy, next }) =>
      [setBy, next]
        .filter((event): event is LedgerEvent => event !== undefined)
        .map((event) => ({ chain: objectChain(record), event })),
    );
    const proofTexts = prover ? await prover.proofsOf(proven) : [];
    const positions = new Map(proven.map(({ event }, position) => [event, position]));
    const proofOf = (event: LedgerEvent): ProvenEvent => ({
      event: toEventView(event),
      tlogProof: proofTexts[positions.get(event) as number] as string,
    });
    const objects: ExportedObject[] = [];
    for (const { record, event, setBy, next } of states) {
      objects.push({
        ...toObjectView(record),
        ...(await namesOf(record)),
        asOf,
        asOfEvent: event,
        ...(prover && setBy
          ? { proof: { setBy: proofOf(setBy), ...(next ? { next: proofOf(next) } : {}) } }
          : {}),
      });
    }
    yield objects;
  }
}

/** The export's text, a piece at a time: the header, then the rows a page at a time. */
async function* exportedText(
  companyId: string,
  query: ExportQuery,
): AsyncGenerator<{ text: string; rowCount: number }> {
  if (query.asOf === undefined) {
    yield { text: exportHeader(query.format), rowCount: 0 };
    for await (const objects of exportedPages(companyId, query)) {
      yield { text: exportLines(query.format, objects), rowCount: objects.length };
    }
    return;
  }
  const asOf = storedInstant(query.asOf);
  const prover = query.proofs ? await inventoryProver(asOf) : undefined;
  yield {
    text: prover ? `${JSON.stringify(prover.header)}\n` : exportHeader(query.format, true),
    rowCount: 0,
  };
  for await (const objects of exportedPagesAsOf(companyId, query, asOf, prover)) {
    yield { text: exportLines(query.format, objects, true), rowCount: objects.length };
  }
}

/** `proofs=true` needs the moment and JSON Lines (a CSV row has no room for proofs). */
function checkExportQuery(query: ExportQuery): void {
  if (!query.proofs) return;
  if (query.format !== 'jsonl') {
    throw new ValidationError([
      { field: 'proofs', code: 'FORMAT_INVALID', message: 'proofs=true needs format=jsonl' },
    ]);
  }
  if (query.asOf === undefined) {
    throw new ValidationError([{ field: 'asOf', code: 'REQUIRED', message: 'proofs=true needs asOf' }]);
  }
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
  checkExportQuery(query);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const { text, rowCount } of exportedText(companyId, query)) {
    const bytes = Buffer.from(text, 'utf8');
    size += bytes.length;
    // The header alone is always answered inline: a job is for rows that do not fit.
    if (rowCount > 0 && size > inlineMaxBytes()) return startExport(companyId, query, pathPrefix);
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
  // Parameters are kept as text: `proofs` comes back as "true" or "false".
  const { proofs, ...parameters } = record.parameters;
  const query = { ...parameters, proofs: proofs === 'true' } as unknown as ExportQuery;
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
    for await (const piece of exportedText(companyId, query)) {
      rowCount += piece.rowCount;
      await write(piece.text);
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
