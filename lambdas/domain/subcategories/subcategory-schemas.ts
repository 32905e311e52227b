/** Request shapes of the subcategory operations (spec 4.8-4.10). */
import { metadata, object, optional, required, string } from '#shared/schema.js';

/** The spec sets no bounds on a subcategory name: we use the category name's, 2-100 characters. */
const subcategoryName = string({ min: 2, max: 100 });
const subcategoryDescription = string({ max: 2048 });

/** 10 MB of image bytes, as base64 text (4 characters per 3 bytes). */
export const SUBCATEGORY_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const categoryIdOnlyPath = object({ categoryId: required(string({ format: 'uuid' })) });

export const createSubcategoryBody = object({
  name: required(subcategoryName, 'unique within its category, ignoring case'),
  description: optional(subcategoryDescription),
  image: optional(
    string({ max: Math.ceil(SUBCATEGORY_IMAGE_MAX_BYTES / 3) * 4 + 4 }),
    'base64 image, at most 10 MB of bytes',
  ),
  // Not in spec 4.8's body, but in the subcategory shape of 2.4 (in category responses).
  metadata: optional(metadata(), 'shown with the subcategory in category responses (extension)'),
});

export const SUBCATEGORY_ACTIONS = ['CHANGE', 'ACTIVATE', 'DEACTIVATE', 'REMOVE'] as const;
export type SubcategoryAction = (typeof SUBCATEGORY_ACTIONS)[number];

export const subcategoryDetailPath = object({
  companyId: required(string({ format: 'uuid' })),
  categoryId: required(string({ format: 'uuid' })),
  subcategoryId: required(string({ format: 'uuid' })),
});

/** The text fields of the multipart update (spec 4.10); `action` is checked by the service (INVALID_ACTION). */
export const updateSubcategoryFields = object({
  name: optional(subcategoryName, 'the current name should be sent on every update'),
  action: optional(string({ max: 50 }), 'CHANGE (default), ACTIVATE, DEACTIVATE or REMOVE'),
  description: optional(subcategoryDescription),
});
