/** Builds categories, subcategories and objects through the real handlers, for tests. */
import { randomUUID } from 'node:crypto';
import { handler as createCategory } from '../../lambdas/handlers/categories/create-category';
import { handler as createObject } from '../../lambdas/handlers/objects/create-object';
import { handler as createSubcategory } from '../../lambdas/handlers/subcategories/create-subcategory';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from './api-events';

export async function givenCategory(principal: Principal, name = `Category ${randomUUID().slice(0, 8)}`) {
  const response = await invoke(createCategory, {
    method: 'POST',
    path: '/v2/categories',
    principal,
    body: { name },
  });
  if (response.statusCode !== 201) throw new Error(`category: ${JSON.stringify(response.body)}`);
  return response.body as { id: string; name: string };
}

export async function givenSubcategory(
  principal: Principal,
  categoryId: string,
  name = `Sub ${randomUUID().slice(0, 8)}`,
) {
  const response = await invoke(createSubcategory, {
    method: 'POST',
    path: `/v2/categories/${categoryId}/subcategories`,
    principal,
    pathParameters: { categoryId },
    body: { name },
  });
  if (response.statusCode !== 200) throw new Error(`subcategory: ${JSON.stringify(response.body)}`);
  return { id: response.body.data.id as string, name, categoryId };
}

/** A category with one subcategory. */
export async function givenSubcategoryPath(principal: Principal) {
  const category = await givenCategory(principal);
  const subcategory = await givenSubcategory(principal, category.id);
  return {
    categoryId: category.id,
    subcategoryId: subcategory.id,
    categoryName: category.name,
    subcategoryName: subcategory.name,
  };
}

export async function givenObject(
  principal: Principal,
  place: { categoryId: string; subcategoryId: string },
  body: Record<string, unknown> = {},
) {
  const response = await invoke(createObject, {
    method: 'POST',
    path: `/v2/categories/${place.categoryId}/subcategories/${place.subcategoryId}/objects`,
    principal,
    pathParameters: place,
    body: { externalId: `EXT-${randomUUID()}`, name: 'An object', ...body },
  });
  if (response.statusCode !== 201) throw new Error(`object: ${JSON.stringify(response.body)}`);
  return response.body;
}
