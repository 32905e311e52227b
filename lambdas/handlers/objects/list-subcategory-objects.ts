import { listSubcategoryObjects } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listSubcategoryObjects, async ({ principal, path, query }) => ({
  body: await listSubcategoryObjects(principal.tenantId, path.categoryId, path.subcategoryId, query),
}));
