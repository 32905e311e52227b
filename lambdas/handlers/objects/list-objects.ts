import { listObjects } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.listObjects, async ({ principal, query }) => ({
  body: await listObjects(principal.tenantId, query),
}));
