/**
 * The one operation table. Each API operation is listed here once; the CDK stack builds its
 * API Gateway route and Lambda function from it, the local gateway routes by it, and the
 * handlers read their permission and request schemas from it. Adding an operation is one row
 * here plus one handler file in `lambdas/handlers/`.
 */
import {
  categoryIdPath,
  createCategoryBody,
  listCategoriesQuery,
  updateCategoryBody,
} from '#domain/categories/category-schemas.js';
import type { Permission, PrincipalType } from '#shared/principal.js';
import type { ObjectSchema } from '#shared/schema.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

// biome-ignore lint/suspicious/noExplicitAny: a table of schemas of every shape
type AnyObjectSchema = ObjectSchema<any>;

export interface Operation {
  method: HttpMethod;
  /** API Gateway path template, `{name}` for path parameters. */
  path: string;
  /** Handler module under `lambdas/handlers/`, without extension; it exports `handler`. */
  handler: string;
  summary: string;
  /** Which kind of key may call it: a company's or an App's. */
  principal: PrincipalType;
  permission: Permission;
  /** The 403 code when the key lacks the permission or is of the other kind. */
  deniedCode: string;
  /** Subcategory operations report validation issues as `details` instead of `validationErrors`. */
  errorFormat?: 'validationErrors' | 'details';
  pathParameters?: AnyObjectSchema;
  query?: AnyObjectSchema;
  body?: AnyObjectSchema;
  /** Status of the successful answer. */
  successStatus: number;
}

const companyOperation = { principal: 'company', deniedCode: 'COMPANY_ACCESS_DENIED' } as const;

export const operations = {
  listCategories: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories',
    handler: 'categories/list-categories',
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
    summary: 'Create a category (spec 4.6)',
    permission: 'categories:write',
    body: createCategoryBody,
    successStatus: 201,
  },
  getCategory: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories/{categoryId}',
    handler: 'categories/get-category',
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
    summary: 'Update a category (spec 4.7)',
    permission: 'categories:write',
    pathParameters: categoryIdPath,
    body: updateCategoryBody,
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

/** The table as a list, each row with its id. */
export const operationList: ReadonlyArray<Operation & { id: OperationId }> = Object.entries(operations).map(
  ([id, operation]) => ({ id: id as OperationId, ...operation }),
);
