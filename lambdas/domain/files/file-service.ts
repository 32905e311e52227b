/**
 * Files of objects (spec 4.16-4.18 and the extensions): upload (streamed, typed on three
 * signals, hashed while streaming), download, delete and list. Upload and delete each append
 * an event to the object's ledger chain in the transaction that writes or removes the record.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  deleteFileItem,
  type FileRecord,
  fileStorageKey,
  findFile,
  insertFileItem,
  listObjectFiles,
} from '#repositories/file-repository.js';
import { deleteFileBytes, presignedDownloadUrl, readFileBytes } from '#repositories/file-store.js';
import {
  findObjectByExternalId,
  findVisibleObject,
  type ObjectRecord,
} from '#repositories/object-repository.js';
import type { TransactItem } from '#repositories/transactions.js';
import { nowIso } from '#shared/clock.js';
import { BadRequestError, NotFoundError, PayloadTooLargeError, ValidationError } from '#shared/errors.js';
import { parseMultipartStream } from '#shared/multipart-stream.js';
import { checkUploadFileName } from '#shared/name-text.js';
import { type CursorPage, type PageScope, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import { actorOf, type Principal } from '#shared/principal.js';
import type { Infer } from '#shared/schema.js';
import { UUID_PATTERN } from '#shared/schema.js';
import { changeObject, objectNotFound } from '../objects/object-change.js';
import { DOWNLOAD_MAX_AGE_SECONDS, downloadHeaders, NOSNIFF } from './download-headers.js';
import { type FileIntake, takeInFile } from './file-intake.js';
import { TAG_MAX_LENGTH, TAGS_MAX_COUNT, type uploadFields } from './file-schemas.js';
import { type FileView, toFileView } from './file-view.js';

type UploadFields = Infer<typeof uploadFields.shape>;

/** Files up to this size are returned inline; larger ones by a redirect to S3 (Lambda responses stop near 6 MB, base64 adds a third). */
const INLINE_DOWNLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Multipart framing allowed on top of the file itself before a body is refused unread. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

const fileNotFound = (fileId: string) =>
  new NotFoundError('FILE_NOT_FOUND', `No file ${fileId} in this company`);

/** The object named by its UUID or its externalId (spec 4.16), if visible. */
export async function resolveObject(companyId: string, objectRef: string): Promise<ObjectRecord> {
  const byId = UUID_PATTERN.test(objectRef)
    ? await findVisibleObject(companyId, objectRef.toLowerCase())
    : undefined;
  const object = byId ?? (await findObjectByExternalId(companyId, objectRef));
  if (!object) throw objectNotFound(objectRef);
  return object;
}

/** `tags` as sent (comma-separated) → a list without blanks or repeats. */
export function parseTags(tags: string | undefined): string[] {
  const list = [
    ...new Set(
      (tags ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
  if (list.length > TAGS_MAX_COUNT) {
    throw new ValidationError([
      { field: 'tags', code: 'LENGTH_INVALID', message: `at most ${TAGS_MAX_COUNT} tags` },
    ]);
  }
  const long = list.find((tag) => [...tag].length > TAG_MAX_LENGTH);
  if (long !== undefined) {
    throw new ValidationError([
      {
        field: 'tags',
        code: 'LENGTH_INVALID',
        message: `each tag must be at most ${TAG_MAX_LENGTH} characters`,
      },
    ]);
  }
  return list;
}

/** Writes the record and the object's `file_upload` event; returns the record. */
export async function recordUploadedFile(
  principal: Principal,
  object: ObjectRecord,
  file: {
    id: string;
    originalFileName: string;
    intake: FileIntake;
    storageKey: string;
    description: string;
    tags: string[];
  },
  extraItems: TransactItem[] = [],
): Promise<FileRecord> {
  const record: FileRecord = {
    id: file.id,
    companyId: object.companyId,
    objectId: object.id,
    fileName: `${file.id}${file.intake.type.extensions[0]}`,
    originalFileName: file.originalFileName,
    mimeType: file.intake.type.mimeType,
    size: file.intake.size,
    description: file.description,
    tags: file.tags,
    uploadedAt: nowIso(),
    uploadedBy: actorOf(principal),
    checksum: `sha256:${file.intake.sha256}`,
    storageKey: file.storageKey,
    storageVersionId: file.intake.versionId,
  };
  await changeObject(
    principal,
    object.id,
    {
      action: 'file_upload',
      apply: (before) => ({ ...before, fileCount: before.fileCount + 1 }),
      changes: () => ({
        file: {
          from: null,
          to: {
            id: record.id,
            fileName: record.fileName,
            originalFileName: record.originalFileName,
            checksum: record.checksum,
            size: record.size,
          },
        },
      }),
      extraItems: () => [insertFileItem(record), ...extraItems],
    },
    object,
  );
  return record;
}

/**
 * How a direct upload's multipart body is read: the operation row's `streamedBody` declaration
 * (`operations.uploadFile`), which the OpenAPI document describes too.
 */
interface UploadForm {
  /** The text fields' schema. */
  fields: typeof uploadFields;
  /** The part that carries the file; only the first such part counts. */
  fileField: string;
  maxFileBytes: number;
}

export interface UploadRequest {
  form: UploadForm;
  body: Readable;
  contentType: string;
  contentLength: number | undefined;
  /** Stage prefix for the record's `url`. */
  pathPrefix: string;
}

/**
 * Direct upload (spec 4.16): a multipart body with `file`, `description` and `tags`. The file
 * streams to storage while it is hashed; it is refused on the first sign of a wrong type or an
 * excess of size, and whatever was stored of a refused upload is deleted.
 */
export async function uploadFile(
  principal: Principal,
  objectRef: string,
  request: UploadRequest,
): Promise<FileView> {
  if (
    request.contentLength !== undefined &&
    request.contentLength > request.form.maxFileBytes + MULTIPART_OVERHEAD_BYTES
  ) {
    throw new PayloadTooLargeError(
      'FILE_TOO_LARGE',
      `The file is larger than ${request.form.maxFileBytes} bytes (50 MB)`,
    );
  }
  if (!request.contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new BadRequestError(
      'FILE_REQUIRED',
      `Send the file as multipart/form-data, in a part named "${request.form.fileField}"`,
    );
  }
  const object = await resolveObject(principal.tenantId, objectRef);
  const id = randomUUID();
  const storageKey = fileStorageKey(object.companyId, id);
  let filePart: { originalFileName: string; intake: Promise<FileIntake> } | undefined;
  let nameRefused = false;
  // Rejects as soon as the file is refused, without waiting for the end of the body.
  let rejectEarly: (error: unknown) => void = () => undefined;
  const refused = new Promise<never>((_, reject) => {
    rejectEarly = reject;
  });
  const fieldsRead = parseMultipartStream(
    request.body,
    request.contentType,
    (part) => {
      if (part.fieldName !== request.form.fileField || filePart || nameRefused) {
        part.stream.resume(); // only the first `file` part counts
        return;
      }
      try {
        // Bounded and checked before the type check or storage reads it.
        checkUploadFileName(part.fileName, part.fieldName);
      } catch (error) {
        nameRefused = true;
        part.stream.resume();
        rejectEarly(error);
        return;
      }
      filePart = {
        originalFileName: part.fileName,
        intake: takeInFile(part.stream, {
          fileName: part.fileName,
          declaredMimeType: part.mimeType,
          maxBytes: request.form.maxFileBytes,
          storageKey,
        }),
      };
      filePart.intake.catch(rejectEarly);
    },
    { maxFileBytes: request.form.maxFileBytes },
  );
  let intake: FileIntake | undefined;
  try {
    const fields = await Promise.race([fieldsRead, refused]);
    if (!filePart) {
      throw new BadRequestError(
        'FILE_REQUIRED',
        `The body has no file part named "${request.form.fileField}"`,
      );
    }
    intake = await filePart.intake;
    const parsedFields: UploadFields = request.form.fields.parse(fields, 'body');
    const record = await recordUploadedFile(principal, object, {
      id,
      originalFileName: filePart.originalFileName,
      intake,
      storageKey,
      description: parsedFields.description ?? '',
      tags: parseTags(parsedFields.tags),
    });
    return toFileView(record, request.pathPrefix);
  } catch (error) {
    // The file may still be arriving in storage (a body malformed after the file part): wait for it.
    const stored = intake ?? (await filePart?.intake.catch(() => undefined));
    if (stored) await deleteFileBytes([{ key: storageKey, versionId: stored.versionId }]);
    throw error;
  }
}

/** A file of the company whose object is still visible. */
async function findVisibleFile(companyId: string, fileId: string): Promise<FileRecord> {
  return (await findVisibleFileAndObject(companyId, fileId)).record;
}

/** The file and its object, when both exist and the object is visible; else 404 `FILE_NOT_FOUND`. */
async function findVisibleFileAndObject(
  companyId: string,
  fileId: string,
): Promise<{ record: FileRecord; object: ObjectRecord }> {
  const record = await findFile(companyId, fileId);
  const object = record && (await findVisibleObject(companyId, record.objectId));
  if (!record || !object) throw fileNotFound(fileId);
  return { record, object };
}

const etagOf = (record: FileRecord) => `"${record.checksum.replace(/^sha256:/, '')}"`;

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

export type Download =
  | { kind: 'notModified'; headers: Record<string, string> }
  | { kind: 'inline'; headers: Record<string, string>; content: Buffer }
  | { kind: 'redirect'; headers: Record<string, string>; location: string };

/** The bytes of a file (spec 4.17), or a 304, or a redirect to S3 for large files. */
export async function downloadFile(
  companyId: string,
  fileId: string,
  options: { attachment: boolean; ifNoneMatch?: string },
): Promise<Download> {
  const record = await findVisibleFile(companyId, fileId);
  const etag = etagOf(record);
  const headers = { ...downloadHeaders(record, options), ETag: etag };
  if (matchesEtag(options.ifNoneMatch, etag)) {
    return {
      kind: 'notModified',
      headers: { ETag: etag, 'Cache-Control': headers['Cache-Control'], ...NOSNIFF },
    };
  }
  if (record.size > INLINE_DOWNLOAD_MAX_BYTES) {
    // S3 can override only these headers of its response: no nosniff, no CSP. For active content
    // the forced attachment is what keeps the browser from rendering it.
    const location = await presignedDownloadUrl(
      record.storageKey,
      {
        contentType: headers['Content-Type'],
        contentDisposition: headers['Content-Disposition'],
        cacheControl: headers['Cache-Control'],
      },
      DOWNLOAD_MAX_AGE_SECONDS,
    );
    return { kind: 'redirect', headers: { ETag: etag, 'Cache-Control': 'no-store', ...NOSNIFF }, location };
  }
  const content = await readFileBytes(record.storageKey);
  return { kind: 'inline', headers: { ...headers, 'Content-Length': String(content.length) }, content };
}

/** Deletes a file (spec 4.18): record and bytes, with a `file_delete` event on the object. */
export async function deleteFile(principal: Principal, fileId: string): Promise<void> {
  const { record, object } = await findVisibleFileAndObject(principal.tenantId, fileId);
  let tries = 0;
  await changeObject(
    principal,
    record.objectId,
    {
      action: 'file_delete',
      apply: async (before) => {
        // The first try has just read the file; a retry asks again, since a parallel delete that
        // won the race leaves this one a 404, not a 409.
        if (tries++ > 0 && !(await findFile(principal.tenantId, fileId))) throw fileNotFound(fileId);
        return { ...before, fileCount: Math.max(0, before.fileCount - 1) };
      },
      changes: () => ({
        file: {
          from: {
            id: record.id,
            fileName: record.fileName,
            originalFileName: record.originalFileName,
            checksum: record.checksum,
            size: record.size,
          },
          to: null,
        },
      }),
      extraItems: () => [deleteFileItem(record)],
    },
    object,
  );
  await deleteFileBytes([{ key: record.storageKey, versionId: record.storageVersionId }]);
}

/** A page of an object's files, newest first (extension). */
export async function listFiles(
  companyId: string,
  objectRef: string,
  query: { limit: number; offset: number; cursor?: string },
  pathPrefix: string,
): Promise<CursorPage<FileView>> {
  const object = await resolveObject(companyId, objectRef);
  // Bound to the object's id, so a cursor works whether the path named its id or its externalId.
  const scope: PageScope = { tenantId: companyId, list: `files:${object.id}` };
  const position = await pagePositionOf(query, scope);
  const { records, lastKey } = await listObjectFiles(companyId, object.id, position);
  return toCursorPage(
    records.map((record) => toFileView(record, pathPrefix)),
    position,
    object.fileCount,
    scope,
    lastKey,
  );
}
