import { getObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.getObject, async ({ principal, path, query }) => ({
  body: await getObject(principal.tenantId, path.objectId, query),
}));
