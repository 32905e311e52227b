import { createSubcategory } from '#domain/subcategories/subcategory-service.js';
import { httpHandler } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { successEnvelope } from '#http/success-envelope.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(
  operations.createSubcategory,
  async ({ principal, path, body }) => ({
    body: successEnvelope(await createSubcategory(principal, path.categoryId, body)),
  }),
  idempotentRequests,
);
