import { getObject } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(objectOperations.getCompanyObject, async ({ principal, path, query }) => {
  return { body: await getObject(principal.tenantId, path.objectId, query) };
});
