import { updateSubcategory } from '#domain/subcategories/subcategory-service.js';
import { formRequests } from '#http/form-requests.js';
import { httpHandler } from '#http/http-handler.js';
import { successEnvelope } from '#http/success-envelope.js';
import { subcategoryOperations } from '../../operations/subcategories.js';

export const handler = httpHandler(
  subcategoryOperations.updateSubcategory,
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
