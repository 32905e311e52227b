/** Request shapes of the file operations (spec 4.16-4.18, 2.6) and the upload-session extension. */
import { fileEntity } from '#repositories/file-entity.js';
import { fileNameText } from '#shared/name-text.js';
import { pageQueryFields } from '#shared/pagination.js';
import { boolean, defaulted, integer, object, optional, required, string } from '#shared/schema.js';

/** The largest file (spec 4.16: 50 MB). */
export const FILE_MAX_BYTES = 50 * 1024 * 1024;
/** Our bounds for the comma-separated `tags`: how many, and how long each may be. */
export const TAGS_MAX_COUNT = 50;
export const TAG_MAX_LENGTH = 100;

const uuid = () => string({ format: 'uuid' });
const fileDescription = fileEntity.attributes.description.schema;
const tagList = string({ max: TAGS_MAX_COUNT * (TAG_MAX_LENGTH + 1) });

/** `objectId` is the object's UUID or its externalId (spec 4.16). */
export const objectFilesPath = object({
  companyId: required(uuid()),
  objectId: required(string({ min: 1, max: 100 })),
});
export const companyFilePath = object({ companyId: required(uuid()), fileId: required(uuid()) });
export const uploadSessionPath = object({
  companyId: required(uuid()),
  objectId: required(string({ min: 1, max: 100 })),
  uploadId: required(uuid()),
});

/** Text fields of the multipart upload. */
export const uploadFields = object({
  description: optional(fileDescription),
  tags: optional(tagList, 'comma-separated'),
});

export const downloadQuery = object({
  download: defaulted(boolean({ fromQueryString: true }), false, 'true: Content-Disposition attachment'),
});

export const listFilesQuery = object({ ...pageQueryFields() });

export const createUploadSessionBody = object({
  fileName: required(
    fileNameText(),
    'the name the file is uploaded under (its extension decides the type); no control or bidirectional formatting characters',
  ),
  mimeType: required(string({ min: 1, max: 255 })),
  size: required(integer({ min: 1, max: FILE_MAX_BYTES }), 'exact size in bytes'),
  description: optional(fileDescription),
  tags: optional(tagList, 'comma-separated'),
});
