import { updateSubcategory } from '#domain/subcategories/subcategory-service.js';
import { formRequests } from '#http/form-requests.js';
import { httpHandler } from '#http/http-handler.js';
import { successEnvelope } from '#http/success-envelope.js';
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
    return { body: successEnvelope({ imageId }, { changes }) };
  },
  formRequests,
);
