/** Rows of the operation table (`lambdas/operations.ts`): categories. */
import {
  categoryIdPath,
  createCategoryBody,
  listCategoriesQuery,
  updateCategoryBody,
} from '#domain/categories/category-schemas.js';
import { companyOperation, type Operation, withIds } from '../operation-row.js';

export const categoryOperations = withIds({
  listCategories: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories',
    handler: 'categories/list-categories',
    access: { table: ['GetItem', 'Query'], indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'] },
    summary: 'List categories (spec 4.5)',
    permission: 'categories:read',
    query: listCategoriesQuery,
    successStatus: 200,
  },
  createCategory: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/categories',
    handler: 'categories/create-category',
    access: { table: ['PutItem', 'UpdateItem'] },
    summary: 'Create a category (spec 4.6)',
    permission: 'categories:write',
    body: createCategoryBody,
    idempotent: true,
    successStatus: 201,
  },
  getCategory: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories/{categoryId}',
    handler: 'categories/get-category',
    access: { table: ['Query'] },
    summary: 'Get one category (extension: not shown in the spec)',
    permission: 'categories:read',
    pathParameters: categoryIdPath,
    successStatus: 200,
  },
  updateCategory: {
    ...companyOperation,
    method: 'PUT',
    path: '/v2/categories/{categoryId}',
    handler: 'categories/update-category',
    access: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    summary: 'Update a category (spec 4.7)',
    permission: 'categories:write',
    pathParameters: categoryIdPath,
    body: updateCategoryBody,
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
