/**
 * The file record of an object (spec 2.6) and the upload session: attributes written once, and
 * their item codecs. Their keys and indexes: `fileKeys`, `uploadSessionKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { SUPPORTED_TYPES } from '#shared/file-types.js';
import { ACTOR_FORMATS } from '#shared/principal.js';
import { arrayOf, dateTime, documented, integer, string } from '#shared/schema.js';

const uuid = () => string({ format: 'uuid' });
/** The file's description (spec 4.16 sets no bound: ours). */
const fileDescription = string({ max: 500 });
// The upload checks the type itself (extension, declaration and leading bytes): documented only.
const supportedMimeType = documented(string(), { enum: SUPPORTED_TYPES.map((type) => type.mimeType) });

export const fileEntity = defineEntity('file', {
  id: attribute(uuid()),
  companyId: attribute(uuid(), { hidden: true }),
  objectId: attribute(uuid(), { hidden: true }),
  fileName: attribute(string(), { description: 'stored name: `<id><extension>`' }),
  originalFileName: attribute(string(), { description: 'name as uploaded' }),
  mimeType: attribute(supportedMimeType),
  size: attribute(integer({ min: 0 }), { description: 'bytes' }),
  description: attribute(fileDescription),
  tags: attribute(arrayOf(string()), { missing: [] }),
  uploadedAt: attribute(dateTime()),
  uploadedBy: attribute(string(), { description: ACTOR_FORMATS }),
  /** `sha256:<hex>` of the stored bytes. */
  checksum: attribute(string({ pattern: /^sha256:[0-9a-f]{64}$/ })),
  storageKey: attribute(string(), { hidden: true }),
  /** The S3 version holding the bytes (deleted by version, so that deletion is permanent). */
  storageVersionId: attribute(string(), { hidden: true, optional: true }),
});

export type FileRecord = RecordOf<typeof fileEntity>;

/** A presigned upload that has been handed out and not yet completed (its response is not a view of it). */
export const uploadSessionEntity = defineEntity('uploadSession', {
  id: attribute(uuid()),
  companyId: attribute(uuid()),
  objectId: attribute(uuid()),
  originalFileName: attribute(string()),
  mimeType: attribute(string()),
  size: attribute(integer({ min: 1 })),
  description: attribute(fileDescription),
  tags: attribute(arrayOf(string())),
  createdAt: attribute(dateTime()),
  expiresAt: attribute(dateTime()),
  storageKey: attribute(string()),
});

export type UploadSessionRecord = RecordOf<typeof uploadSessionEntity>;
