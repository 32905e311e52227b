/**
 * Calls of the subcategory handlers (spec 4.8-4.10) and of the category reads that embed
 * subcategories, in process, as API Gateway would make them. Each returns the status, headers
 * and parsed JSON body. Multipart updates are in `subcategory-multipart.ts`.
 */
import { handler as getCategoryHandler } from '../../lambdas/handlers/categories/get-category';
import { handler as listCategoriesHandler } from '../../lambdas/handlers/categories/list-categories';
import { handler as createSubcategoryHandler } from '../../lambdas/handlers/subcategories/create-subcategory';
import { handler as getSubcategoryHandler } from '../../lambdas/handlers/subcategories/get-subcategory';
import { handler as updateSubcategoryHandler } from '../../lambdas/handlers/subcategories/update-subcategory';
import type { Principal } from '../../lambdas/shared/principal';
import { type EventOptions, invoke } from './api-events';

type Extra = Pick<EventOptions, 'rawBody' | 'headers'>;

/** The three ids of the detail and update path (spec 4.9, 4.10). */
export interface SubcategoryAddress {
  companyId: string;
  categoryId: string;
  subcategoryId: string;
}

const DETAIL_RESOURCE = '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}';
export const UPDATE_RESOURCE = DETAIL_RESOURCE;

export const subcategoryDetailPath = (address: SubcategoryAddress): string =>
  `/api/v2/object/${address.companyId}/category/${address.categoryId}/subcategory/${address.subcategoryId}`;

/** The address of a subcategory of the principal's own company. */
export const addressOf = (
  principal: Principal,
  place: { categoryId: string; subcategoryId: string },
): SubcategoryAddress => ({
  companyId: principal.tenantId,
  categoryId: place.categoryId,
  subcategoryId: place.subcategoryId,
});

/** POST /v2/categories/{categoryId}/subcategories with a JSON body. */
export const postSubcategory = (
  principal: Principal | undefined,
  categoryId: string,
  body: unknown,
  extra: Extra = {},
) =>
  invoke(createSubcategoryHandler, {
    method: 'POST',
    path: `/v2/categories/${categoryId}/subcategories`,
    resource: '/v2/categories/{categoryId}/subcategories',
    principal,
    pathParameters: { categoryId },
    body,
    ...extra,
  });

/** Creates a subcategory and returns its id; fails loudly when refused. */
export async function createSubcategoryOk(
  principal: Principal,
  categoryId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await postSubcategory(principal, categoryId, body);
  if (response.statusCode !== 200) {
    throw new Error(
      `creating a subcategory responded ${response.statusCode}: ${JSON.stringify(response.body)}`,
    );
  }
  return response.body.data.id as string;
}

/** GET /api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}. */
export const getSubcategory = (principal: Principal | undefined, address: SubcategoryAddress) =>
  invoke(getSubcategoryHandler, {
    method: 'GET',
    path: subcategoryDetailPath(address),
    resource: DETAIL_RESOURCE,
    principal,
    pathParameters: { ...address },
  });

/** PUT on the detail path with a JSON body (the form's fields without a file). */
export const putSubcategoryJson = (
  principal: Principal | undefined,
  address: SubcategoryAddress,
  body: unknown,
  extra: Extra = {},
) =>
  invoke(updateSubcategoryHandler, {
    method: 'PUT',
    path: subcategoryDetailPath(address),
    resource: UPDATE_RESOURCE,
    principal,
    pathParameters: { ...address },
    body,
    ...extra,
  });

/** GET /v2/categories/{categoryId}. */
export const getCategory = (principal: Principal | undefined, categoryId: string) =>
  invoke(getCategoryHandler, {
    method: 'GET',
    path: `/v2/categories/${categoryId}`,
    resource: '/v2/categories/{categoryId}',
    principal,
    pathParameters: { categoryId },
  });

/** GET /v2/categories. */
export const listCategories = (principal: Principal | undefined, query?: Record<string, string>) =>
  invoke(listCategoriesHandler, { method: 'GET', path: '/v2/categories', principal, query });
