import { listObjectEvents } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.listObjectEvents, async ({ principal, path, query }) => ({
  body: await listObjectEvents(principal.tenantId, path.objectId, query),
}));
