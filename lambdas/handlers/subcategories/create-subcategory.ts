import { createSubcategory } from '#domain/subcategories/subcategory-service.js';
import { nowIso } from '#shared/clock.js';
import { httpHandler } from '#shared/http-handler.js';
import { idempotentRequests } from '#shared/idempotent-requests.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(
  operations.createSubcategory,
  async ({ principal, path, body }) => ({
    body: {
      status: 'success',
      data: await createSubcategory(principal, path.categoryId, body),
      timestamp: nowIso(),
    },
  }),
  idempotentRequests,
);
