import { createObject } from '#domain/objects/object-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { objectOperations } from '../../operations/objects.js';

export const handler = httpHandler(
  objectOperations.createObject,
  async ({ principal, path, body, event }) => {
    const object = await createObject(principal, path.categoryId, path.subcategoryId, body);
    return {
      body: object,
      headers: {
        Location: resourceLocation(event, `/v2/companies/${principal.tenantId}/objects/${object.id}`),
      },
    };
  },
  idempotentRequests,
);
