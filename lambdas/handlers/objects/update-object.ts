import { updateObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.updateObject, async ({ principal, path, body }) => ({
  body: await updateObject(principal, path.objectId, body),
}));
