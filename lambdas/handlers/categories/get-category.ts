import { getCategory } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { categoryOperations } from '../../operations/categories.js';

export const handler = httpHandler(categoryOperations.getCategory, async ({ principal, path }) => ({
  body: await getCategory(principal.tenantId, path.categoryId),
}));
