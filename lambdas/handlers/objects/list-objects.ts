import { listObjects } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listObjects, async ({ principal, query }) => ({
  body: await listObjects(principal.tenantId, query),
}));
