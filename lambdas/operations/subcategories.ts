/** Rows of the operation table (`lambdas/operations.ts`): subcategories. */
import {
  categoryIdOnlyPath,
  createSubcategoryBody,
  SUBCATEGORY_IMAGE_MAX_BYTES,
  subcategoryDetailPath,
  updateSubcategoryFields,
} from '#domain/subcategories/subcategory-schemas.js';
import { type Operation, subcategoryOperation, withIds } from '../operation-row.js';

export const subcategoryOperations = withIds({
  createSubcategory: {
    ...subcategoryOperation,
    method: 'POST',
    path: '/v2/categories/{categoryId}/subcategories',
    handler: 'subcategories/create-subcategory',
    access: { table: ['GetItem', 'PutItem', 'UpdateItem'], files: ['PutObject', 'DeleteObject'] },
    summary: 'Create a subcategory (spec 4.8)',
    permission: 'categories:write',
    pathParameters: categoryIdOnlyPath,
    body: createSubcategoryBody,
    idempotent: true,
    successStatus: 200,
  },
  getSubcategory: {
    ...subcategoryOperation,
    method: 'GET',
    path: '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
    handler: 'subcategories/get-subcategory',
    access: { table: ['GetItem', 'Query'] },
    summary: 'Get a subcategory in detail (spec 4.9)',
    permission: 'categories:read',
    pathParameters: subcategoryDetailPath,
    companyInPath: true,
    successStatus: 200,
  },
  updateSubcategory: {
    ...subcategoryOperation,
    method: 'PUT',
    path: '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
    handler: 'subcategories/update-subcategory',
    access: {
      table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      files: ['PutObject', 'DeleteObject'],
    },
    summary: 'Update a subcategory with an action, multipart/form-data (spec 4.10)',
    permission: 'categories:write',
    conditionalPermissions: {
      // REMOVE deletes the subcategory's objects and their files (spec 3: "all its data removed"),
      // so it needs their write permissions too, whether or not it has objects right now.
      remove: {
        when: "action REMOVE (it deletes the subcategory's objects and their files)",
        permissions: ['objects:write', 'files:write'],
        appliesTo: ({ fields }) => String(fields.action ?? '').toUpperCase() === 'REMOVE',
      },
    },
    pathParameters: subcategoryDetailPath,
    form: { fields: updateSubcategoryFields, fileField: 'file', maxFileBytes: SUBCATEGORY_IMAGE_MAX_BYTES },
    backgroundJobs: ['removeSubcategoryData'],
    companyInPath: true,
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
