import { updateSubcategory } from '#domain/subcategories/subcategory-service.js';
import { nowIso } from '#shared/clock.js';
import { formRequests } from '#shared/form-requests.js';
import { httpHandler } from '#shared/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(
  operations.updateSubcategory,
  async ({ principal, path, form }) => {
    const { imageId, changes } = await updateSubcategory(
      principal,
      path.categoryId,
      path.subcategoryId,
      form.fields,
      form.file,
    );
    return { body: { status: 'success', data: { imageId }, changes, timestamp: nowIso() } };
  },
  formRequests,
);
