import { updateObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.updateObject, async ({ principal, path, body }) => ({
  body: await updateObject(principal, path.objectId, body),
}));
