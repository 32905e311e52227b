import { listCategories } from '#domain/categories/category-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listCategories, async ({ principal, query }) => ({
  body: await listCategories(principal.tenantId, query),
}));
