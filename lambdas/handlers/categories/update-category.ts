import { updateCategory } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { categoryOperations } from '../../operations/categories.js';

export const handler = httpHandler(categoryOperations.updateCategory, async ({ principal, path, body }) => ({
  body: await updateCategory(principal.tenantId, path.categoryId, body),
}));
