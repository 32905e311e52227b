import { getSubcategoryDetail } from '#domain/subcategories/subcategory-service.js';
import { httpHandler } from '#http/http-handler.js';
import { successEnvelope } from '#http/success-envelope.js';
import { subcategoryOperations } from '../../operations/subcategories.js';

export const handler = httpHandler(subcategoryOperations.getSubcategory, async ({ principal, path }) => {
  const detail = await getSubcategoryDetail(principal.tenantId, path.categoryId, path.subcategoryId);
  return { body: successEnvelope(detail) };
});
