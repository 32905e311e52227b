/** Rows of the operation table (`lambdas/operations.ts`): the OpenAPI document (extension). */
import { type Operation, withIds } from '../operation-row.js';

export const openapiOperations = withIds({
  openapi: {
    head: true,
    method: 'GET',
    path: '/v2/openapi.json',
    handler: 'openapi/get-openapi',
    access: {},
    summary: 'This API as an OpenAPI 3.1 document, generated from the operation table (extension)',
    authorization: 'none',
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
