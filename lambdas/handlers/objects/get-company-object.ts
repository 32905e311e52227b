import { getObject } from '#domain/objects/object-service.js';
import { assertOwnCompany, httpHandler } from '#shared/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getCompanyObject, async ({ principal, path }) => {
  assertOwnCompany(principal, path.companyId);
  return { body: await getObject(principal.tenantId, path.objectId) };
});
