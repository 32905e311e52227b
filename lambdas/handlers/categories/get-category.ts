import { getCategory } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getCategory, async ({ principal, path }) => ({
  body: await getCategory(principal.tenantId, path.categoryId),
}));
