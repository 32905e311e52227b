import { listObjectEvents } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listObjectEvents, async ({ principal, path, query }) => ({
  body: await listObjectEvents(principal.tenantId, path.objectId, query),
}));
