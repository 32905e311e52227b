import { getSubcategoryDetail } from '#domain/subcategories/subcategory-service.js';
import { nowIso } from '#shared/clock.js';
import { httpHandler } from '#shared/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getSubcategory, async ({ principal, path }) => {
  const detail = await getSubcategoryDetail(principal.tenantId, path.categoryId, path.subcategoryId);
  return { body: { status: 'success', data: detail, timestamp: nowIso() } };
});
