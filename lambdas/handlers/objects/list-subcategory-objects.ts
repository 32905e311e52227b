import { listSubcategoryObjects } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(
  objectOperations.listSubcategoryObjects,
  async ({ principal, path, query }) => ({
    body: await listSubcategoryObjects(principal.tenantId, path.categoryId, path.subcategoryId, query),
  }),
);
