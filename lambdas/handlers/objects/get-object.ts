import { getObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getObject, async ({ principal, path }) => ({
  body: await getObject(principal.tenantId, path.objectId),
}));
