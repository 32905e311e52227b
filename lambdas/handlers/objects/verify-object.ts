import { verifyObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.verifyObject, async ({ principal, path }) => ({
  body: await verifyObject(principal.tenantId, path.objectId),
}));
