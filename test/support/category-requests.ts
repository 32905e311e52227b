/**
 * Calls of the category handlers in process, as API Gateway would make them, for the
 * integration tests. Each returns the status, headers and parsed JSON body.
 */
import type { CategoryView } from '../../lambdas/domain/categories/category-view';
import { handler as createCategoryHandler } from '../../lambdas/handlers/categories/create-category';
import { handler as getCategoryHandler } from '../../lambdas/handlers/categories/get-category';
import { handler as listCategoriesHandler } from '../../lambdas/handlers/categories/list-categories';
import { handler as updateCategoryHandler } from '../../lambdas/handlers/categories/update-category';
import type { Principal } from '../../lambdas/shared/principal';
import { type EventOptions, invoke } from './api-events';

type Extra = Pick<EventOptions, 'rawBody' | 'headers'>;

export const postCategory = (principal: Principal | undefined, body: unknown, extra: Extra = {}) =>
  invoke(createCategoryHandler, { method: 'POST', path: '/v2/categories', principal, body, ...extra });

export const getCategory = (principal: Principal | undefined, categoryId: string) =>
  invoke(getCategoryHandler, {
    method: 'GET',
    path: `/v2/categories/${categoryId}`,
    resource: '/v2/categories/{categoryId}',
    principal,
    pathParameters: { categoryId },
  });

export const putCategory = (
  principal: Principal | undefined,
  categoryId: string,
  body: unknown,
  extra: Extra = {},
) =>
  invoke(updateCategoryHandler, {
    method: 'PUT',
    path: `/v2/categories/${categoryId}`,
    resource: '/v2/categories/{categoryId}',
    principal,
    pathParameters: { categoryId },
    body,
    ...extra,
  });

export const listCategories = (principal: Principal | undefined, query?: Record<string, string>) =>
  invoke(listCategoriesHandler, { method: 'GET', path: '/v2/categories', principal, query });

/** Creates a category and returns its body; fails loudly when the creation is refused. */
export async function createCategoryOk(
  principal: Principal,
  body: Record<string, unknown>,
): Promise<CategoryView> {
  const response = await postCategory(principal, body);
  if (response.statusCode !== 201) {
    throw new Error(
      `creating ${JSON.stringify(body)} responded ${response.statusCode}: ${JSON.stringify(response.body)}`,
    );
  }
  return response.body;
}

/**
 * Creates categories one after the other, each in a later millisecond than the one before, so
 * that the createdAt order is exactly the creation order.
 */
export async function createCategoriesInOrder(
  principal: Principal,
  names: readonly string[],
): Promise<CategoryView[]> {
  const created: CategoryView[] = [];
  for (const name of names) {
    const previous = created.at(-1)?.createdAt;
    while (previous !== undefined && new Date().toISOString() <= previous) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    created.push(await createCategoryOk(principal, { name }));
  }
  return created;
}

/** Sets a category's status, failing loudly when refused. */
export async function setCategoryStatus(principal: Principal, categoryId: string, status: string) {
  const response = await putCategory(principal, categoryId, { status });
  if (response.statusCode !== 200) throw new Error(`status change responded ${response.statusCode}`);
  return response.body;
}
