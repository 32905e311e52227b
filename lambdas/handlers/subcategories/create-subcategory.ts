import { createSubcategory } from '#domain/subcategories/subcategory-service.js';
import { httpHandler } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { successEnvelope } from '#http/success-envelope.js';
import { subcategoryOperations } from '../../operations/subcategories.js';

export const handler = httpHandler(
  subcategoryOperations.createSubcategory,
  async ({ principal, path, body }) => ({
    body: successEnvelope(await createSubcategory(principal, path.categoryId, body)),
  }),
  idempotentRequests,
);
