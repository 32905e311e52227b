/**
 * Large uploads in AWS (extension): API Gateway and Lambda stop a request near 6 MB, so a file
 * of up to 50 MB goes straight to S3 with a presigned POST, in two calls:
 *   1. `POST .../files/uploads` {fileName, mimeType, size, description?, tags?} → 201 with the
 *      POST address and form fields (conditions: exactly `size` bytes, that content type);
 *   2. the client POSTs the file to that address, then `POST .../files/uploads/{uploadId}/complete`
 *      → 201 with the file record.
 * Completion trusts nothing the client did: it reads the stored bytes back, checks size, type
 * (leading bytes) and computes the checksum, and deletes a rejected upload.
 */
import { randomUUID } from 'node:crypto';
import {
  deleteUploadSessionItem,
  type FileRecord,
  fileStorageKey,
  findUploadSession,
  insertUploadSession,
  uploadStagingKey,
} from '#repositories/file-repository.js';
import {
  copyFileBytes,
  deleteFileBytes,
  openFileStream,
  presignedUploadPost,
  storedFile,
} from '#repositories/file-store.js';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/errors.js';
import { bareMimeType, typesByNameAndDeclaration } from '#shared/file-types.js';
import type { Principal } from '#shared/principal.js';
import type { Infer } from '#shared/schema.js';
import { type FileIntake, takeInFile } from './file-intake.js';
import { type createUploadSessionBody, FILE_MAX_BYTES } from './file-schemas.js';
import { parseTags, recordUploadedFile, resolveObject } from './file-service.js';
import { type FileView, toFileView } from './file-view.js';

type CreateUploadSessionInput = Infer<typeof createUploadSessionBody.shape>;

/** How long the presigned POST stays valid. */
const UPLOAD_SESSION_SECONDS = 900;

export interface UploadSessionView {
  uploadId: string;
  method: 'POST';
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
  maxBytes: number;
  /** Where to confirm the upload afterwards (relative to the API base). */
  completePath: string;
}

const uploadNotFound = (uploadId: string) =>
  new NotFoundError('UPLOAD_NOT_FOUND', `No open upload ${uploadId} for this object`);

/** Step 1: checks what can be checked before the bytes exist, and hands out the presigned POST. */
export async function createUploadSession(
  principal: Principal,
  objectRef: string,
  input: CreateUploadSessionInput,
  pathPrefix: string,
): Promise<UploadSessionView> {
  const object = await resolveObject(principal.tenantId, objectRef);
  const { types, reason } = typesByNameAndDeclaration(input.fileName, input.mimeType);
  const type = types[0];
  if (!type) {
    throw new UnsupportedMediaTypeError(
      'UNSUPPORTED_FILE_TYPE',
      `"${input.fileName}" is not a supported file: ${reason}`,
    );
  }
  // Without an extension a declared type may fit two types (text/plain: .txt or .csv; Excel's
  // type: .xls or .csv): the session keeps the declared type, and the bytes decide at completion.
  const mimeType = types.length > 1 ? bareMimeType(input.mimeType) : type.mimeType;
  const tags = parseTags(input.tags);
  const id = randomUUID();
  const storageKey = uploadStagingKey(object.companyId, id);
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + UPLOAD_SESSION_SECONDS * 1000).toISOString();
  const post = await presignedUploadPost(
    storageKey,
    { contentType: mimeType, size: input.size },
    UPLOAD_SESSION_SECONDS,
  );
  await insertUploadSession({
    id,
    companyId: object.companyId,
    objectId: object.id,
    originalFileName: input.fileName,
    mimeType,
    size: input.size,
    description: input.description ?? '',
    tags,
    createdAt: createdAt.toISOString(),
    expiresAt,
    storageKey,
  });
  return {
    uploadId: id,
    method: 'POST',
    url: post.url,
    fields: post.fields,
    expiresAt,
    maxBytes: FILE_MAX_BYTES,
    completePath: `${pathPrefix}/v2/companies/${object.companyId}/objects/${object.id}/files/uploads/${id}/complete`,
  };
}

/** Step 2: verifies the stored bytes and records the file (with its ledger event). */
export async function completeUploadSession(
  principal: Principal,
  objectRef: string,
  uploadId: string,
  pathPrefix: string,
): Promise<FileView> {
  const object = await resolveObject(principal.tenantId, objectRef);
  const session = await findUploadSession(object.companyId, uploadId);
  if (!session || session.objectId !== object.id) throw uploadNotFound(uploadId);
  if (Date.parse(session.expiresAt) < Date.now()) throw uploadNotFound(uploadId);
  const staged = await storedFile(session.storageKey);
  if (!staged) {
    throw new ConflictError(
      'UPLOAD_NOT_RECEIVED',
      'The file has not been uploaded to the presigned address yet',
    );
  }
  // The very version measured here is the one checked, copied and then deleted.
  const stagedVersion = { key: session.storageKey, versionId: staged.versionId };
  const discard = () => deleteFileBytes([stagedVersion]);
  if (staged.size > FILE_MAX_BYTES) {
    await discard();
    throw new PayloadTooLargeError(
      'FILE_TOO_LARGE',
      `The file is larger than ${FILE_MAX_BYTES} bytes (50 MB)`,
    );
  }
  if (staged.size !== session.size) {
    await discard();
    throw new ValidationError([
      {
        field: 'size',
        code: 'SIZE_INVALID',
        message: `the upload has ${staged.size} bytes, not the ${session.size} announced`,
      },
    ]);
  }
  let intake: FileIntake;
  try {
    intake = await takeInFile(await openFileStream(session.storageKey, staged.versionId), {
      fileName: session.originalFileName,
      declaredMimeType: session.mimeType,
      maxBytes: FILE_MAX_BYTES,
    });
  } catch (error) {
    await discard();
    throw error;
  }
  // Verified bytes move to the file's own key; the presigned address cannot reach it.
  const storageKey = fileStorageKey(object.companyId, session.id);
  const copied = await copyFileBytes(stagedVersion, storageKey, intake.type.mimeType);
  await discard();
  let record: FileRecord;
  try {
    record = await recordUploadedFile(
      principal,
      object,
      {
        id: session.id,
        originalFileName: session.originalFileName,
        intake: { ...intake, versionId: copied.versionId },
        storageKey,
        description: session.description,
        tags: session.tags,
      },
      [deleteUploadSessionItem(object.companyId, uploadId)],
    );
  } catch (error) {
    await deleteFileBytes([{ key: storageKey, versionId: copied.versionId }]);
    throw error;
  }
  return toFileView(record, pathPrefix);
}
