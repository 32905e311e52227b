/** Request shapes of the subcategory operations (spec 4.8-4.10). */
import { subcategoryEntity } from '#repositories/subcategory-entity.js';
import { documented, object, optional, required, string } from '#shared/schema.js';

const subcategoryName = subcategoryEntity.attributes.name.schema;
const subcategoryDescription = subcategoryEntity.attributes.description.schema;

/** 10 MB of image bytes, as base64 text (4 characters per 3 bytes). */
export const SUBCATEGORY_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The longest `data:<media type>[;parameters];base64,` prefix taken before the base64 text. */
const DATA_URL_PREFIX_MAX = 256;
const IMAGE_BASE64_MAX = Math.ceil(SUBCATEGORY_IMAGE_MAX_BYTES / 3) * 4;
/**
 * The longest `image` text: the base64 of 10 MB, line breaks as MIME writes them (CRLF every
 * 76 characters, which the reader drops) and a data-URL prefix; the bytes are checked after.
 */
const SUBCATEGORY_IMAGE_TEXT_MAX =
  IMAGE_BASE64_MAX + Math.ceil(IMAGE_BASE64_MAX / 76) * 2 + DATA_URL_PREFIX_MAX;

export const SUBCATEGORY_ACTIONS = ['CHANGE', 'ACTIVATE', 'DEACTIVATE', 'REMOVE'] as const;
export type SubcategoryAction = (typeof SUBCATEGORY_ACTIONS)[number];

export const categoryIdOnlyPath = object({ categoryId: required(string({ format: 'uuid' })) });

export const createSubcategoryBody = object({
  name: required(subcategoryName, 'unique within its category, ignoring case'),
  description: optional(subcategoryDescription),
  image: optional(
    string({ max: SUBCATEGORY_IMAGE_TEXT_MAX }),
    'base64 image, at most 10 MB of bytes; a `data:image/...;base64,` prefix and line breaks are taken',
  ),
  // Not in spec 4.8's body, but in the subcategory shape of 2.4 (in category responses).
  metadata: optional(
    subcategoryEntity.attributes.metadata.schema,
    'shown with the subcategory in category responses (extension)',
  ),
});

export const subcategoryDetailPath = object({
  companyId: required(string({ format: 'uuid' })),
  categoryId: required(string({ format: 'uuid' })),
  subcategoryId: required(string({ format: 'uuid' })),
});

/** The text fields of the multipart update (spec 4.10); `action` is checked by the service (INVALID_ACTION). */
export const updateSubcategoryFields = object({
  name: optional(subcategoryName, 'the current name should be sent on every update'),
  // Read as text: the service refuses an unknown action with INVALID_ACTION, and takes any case.
  action: optional(
    documented(string({ max: 50 }), { enum: [...SUBCATEGORY_ACTIONS] }),
    'CHANGE (default), ACTIVATE, DEACTIVATE or REMOVE, in any case',
  ),
  description: optional(subcategoryDescription),
});
