import { createCategory } from '#domain/categories/category-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { categoryOperations } from '../../operations/categories.js';

export const handler = httpHandler(
  categoryOperations.createCategory,
  async ({ principal, body, event }) => {
    const category = await createCategory(principal.tenantId, body);
    return {
      body: category,
      headers: { Location: resourceLocation(event, `/v2/categories/${category.id}`) },
    };
  },
  idempotentRequests,
);
