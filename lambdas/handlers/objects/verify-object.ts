import { verifyObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.verifyObject, async ({ principal, path }) => ({
  body: await verifyObject(principal.tenantId, path.objectId),
}));
