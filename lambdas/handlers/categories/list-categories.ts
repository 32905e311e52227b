import { listCategories } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { categoryOperations } from '../../operations/categories.js';

export const handler = httpHandler(categoryOperations.listCategories, async ({ principal, query }) => ({
  body: await listCategories(principal.tenantId, query),
}));
