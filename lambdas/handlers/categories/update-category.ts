import { updateCategory } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.updateCategory, async ({ principal, path, body }) => ({
  body: await updateCategory(principal.tenantId, path.categoryId, body),
}));
