/**
 * Subcategory images: checked (at most 10 MB; the update's file part by the object files' type
 * rules), stored in the files bucket, and recorded as a file of the subcategory (the detail
 * view's `files`; `imageId` is the current one).
 */
import { randomUUID } from 'node:crypto';
import { putFileBytes, subcategoryImageKey } from '#repositories/file-store.js';
import type { SubcategoryFileRecord } from '#repositories/subcategory-repository.js';
import { nowIso } from '#shared/clock.js';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '#shared/errors.js';
import { checkFileType, SUPPORTED_TYPES, type SupportedType } from '#shared/file-types.js';
import type { UploadedFile } from '#shared/multipart-stream.js';
import { SUBCATEGORY_IMAGE_MAX_BYTES } from './subcategory-schemas.js';

const IMAGE_TYPES = SUPPORTED_TYPES.filter((type) => type.kind === 'image');

export interface ImageUpload {
  content: Buffer;
  mimeType: string;
  /** The stored name's extension, with its dot. */
  extension: string;
  originalName: string;
}

/** The type of create images whose bytes are not a picture we know (spec 4.8 asks only for base64). */
const UNKNOWN_IMAGE = { mimeType: 'application/octet-stream', extension: '.bin' };

const imageOfType = (content: Buffer, type: SupportedType, originalName: string): ImageUpload => ({
  content,
  mimeType: type.mimeType,
  extension: type.extensions[0] ?? '',
  originalName,
});

const imageIssue = (message: string) =>
  new ValidationError([{ field: 'image', code: 'FORMAT_INVALID', message }]);

/**
 * Reads the create operation's `image`: base64 text, optionally as a `data:` URL. Spec 4.8 asks
 * for base64 of at most 10 MB and nothing more, so any bytes are kept: a JPEG, PNG, GIF or WebP
 * is recorded with its type (read from the bytes), anything else as `application/octet-stream`.
 */
export function imageFromBase64(text: string): ImageUpload {
  const base64 = text.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1)
    throw imageIssue('image must be base64 text');
  const content = Buffer.from(base64, 'base64');
  if (content.length === 0) throw imageIssue('image is empty');
  if (content.length > SUBCATEGORY_IMAGE_MAX_BYTES) {
    throw new ValidationError([
      {
        field: 'image',
        code: 'SIZE_INVALID',
        message: `image must be at most ${SUBCATEGORY_IMAGE_MAX_BYTES} bytes (10 MB)`,
      },
    ]);
  }
  const type = IMAGE_TYPES.find((each) => each.matches(content));
  if (!type) return { content, ...UNKNOWN_IMAGE, originalName: `image${UNKNOWN_IMAGE.extension}` };
  return imageOfType(content, type, `image${type.extensions[0]}`);
}

/** Reads the update operation's `file` part: an image by name, declared type and bytes. */
export function imageFromUpload(file: UploadedFile): ImageUpload {
  if (file.content.length > SUBCATEGORY_IMAGE_MAX_BYTES) {
    throw new PayloadTooLargeError(
      'FILE_TOO_LARGE',
      `The image is larger than ${SUBCATEGORY_IMAGE_MAX_BYTES} bytes (10 MB)`,
    );
  }
  const check = checkFileType(file.fileName, file.mimeType, file.content, ['image']);
  if (!check.supported)
    throw new UnsupportedMediaTypeError(
      'UNSUPPORTED_FILE_TYPE',
      `The image is not supported: ${check.reason}`,
    );
  return imageOfType(file.content, check.type, file.fileName);
}

/** Stores the image's bytes; returns the file record to write with the subcategory change. */
export async function storeImage(
  companyId: string,
  subcategoryId: string,
  image: ImageUpload,
): Promise<SubcategoryFileRecord> {
  const id = randomUUID();
  const storageKey = subcategoryImageKey(companyId, subcategoryId, id);
  await putFileBytes(storageKey, image.content, image.mimeType);
  return {
    id,
    subcategoryId,
    name: `${id}${image.extension}`,
    title: image.originalName,
    mimeType: image.mimeType,
    size: image.content.length,
    uploadDate: nowIso(),
    storageKey,
  };
}
