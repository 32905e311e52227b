/**
 * Every row of the operation table becomes one Lambda function and one API Gateway method on
 * the row's path, and the function gets exactly the data access the row declares. Adding a row
 * adds all three; nothing here names an operation. The functions live in nested stacks, one per
 * folder of handlers (`operation-functions-stack.ts`); the methods, their Lambda permissions
 * and the path resources stay with the API in the root stack.
 */
import { Validations } from 'aws-cdk-lib';
import { AuthorizationType, LambdaIntegration, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORT_INLINE_MAX_BYTES_ENVIRONMENT } from '../lambdas/domain/exports/export-inline-limit.js';
import { CORS_ALLOWED_ORIGINS_ENVIRONMENT } from '../lambdas/http/cors.js';
import { methodsOfRow, type Operation } from '../lambdas/operation-row.js';
import { type OperationId, operationList } from '../lambdas/operations.js';
import {
  DIGEST_BUCKET_NAME_ENVIRONMENT,
  FILES_BUCKET_NAME_ENVIRONMENT,
  TABLE_NAME_ENVIRONMENT,
} from '../lambdas/shared/clients.js';
import type { BackgroundJobFunctions } from './background-job-functions.js';
import { bundledFunction } from './bundled-function.js';
import { grantDataAccess } from './operation-access.js';
import { functionGroupOf, functionStackId, OperationFunctionsStack } from './operation-functions-stack.js';
import { PageCursorKey, takesCursor } from './page-cursor-key.js';
import { handlerEntry } from './project-paths.js';

export interface OperationRoutesProps {
  /** Origins allowed by CORS (the functions add the headers of their responses). */
  corsAllowedOrigins: readonly string[];
  restApi: RestApi;
  table: ITable;
  filesBucket: IBucket;
  /** The Object Lock bucket with the log's files (rows with `log` access read it). */
  logBucket?: IBucket;
  backgroundJobs: BackgroundJobFunctions;
}

/** `listCategories` → `ListCategoriesFunction`: the construct id, and so the logical id, follows the row's id. */
export const functionConstructId = (operationId: OperationId): string =>
  `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Function`;

/** Lambda descriptions stop at 256 characters. */
const describe = (operation: Operation): string =>
  `${operation.method} ${operation.path}: ${operation.summary}`.slice(0, 256);

export class OperationRoutes extends Construct {
  /** The function of each operation, by operation id. */
  readonly functions: ReadonlyMap<OperationId, NodejsFunction>;
  /** The nested stack of each folder of handlers, by folder (`categories`, `objects`, ...). */
  readonly functionStacks: ReadonlyMap<string, OperationFunctionsStack>;

  constructor(scope: Construct, id: string, props: OperationRoutesProps) {
    super(scope, id);
    const functions = new Map<OperationId, NodejsFunction>();
    const functionStacks = new Map<string, OperationFunctionsStack>();
    const cursorKey = new PageCursorKey(this, 'PageCursorKey');
    const stackFor = (operation: Operation): OperationFunctionsStack => {
      const group = functionGroupOf(operation);
      let stack = functionStacks.get(group);
      if (!stack) {
        stack = new OperationFunctionsStack(this, functionStackId(group), {
          group,
          stores: { table: props.table, filesBucket: props.filesBucket, logBucket: props.logBucket },
        });
        functionStacks.set(group, stack);
      }
      return stack;
    };

    // Context `exportInlineMaxBytes` lowers the largest export returned in the request (tests).
    const exportInlineMaxBytes: unknown = this.node.tryGetContext('exportInlineMaxBytes');
    for (const operation of operationList) {
      const functionStack = stackFor(operation);
      const stores = functionStack.stores;
      const readsLog = (operation.access?.log ?? []).length > 0;
      const operationFunction = bundledFunction(functionStack, functionConstructId(operation.id), {
        entry: handlerEntry(operation.handler),
        description: describe(operation),
        environment: {
          [TABLE_NAME_ENVIRONMENT]: stores.table.tableName,
          [FILES_BUCKET_NAME_ENVIRONMENT]: stores.filesBucket.bucketName,
          ...(readsLog && stores.logBucket
            ? { [DIGEST_BUCKET_NAME_ENVIRONMENT]: stores.logBucket.bucketName }
            : {}),
          ...(props.corsAllowedOrigins.length > 0
            ? { [CORS_ALLOWED_ORIGINS_ENVIRONMENT]: props.corsAllowedOrigins.join(',') }
            : {}),
          ...(exportInlineMaxBytes !== undefined && operation.id === 'exportObjects'
            ? { [EXPORT_INLINE_MAX_BYTES_ENVIRONMENT]: String(exportInlineMaxBytes) }
            : {}),
        },
      });
      // Exactly what the row declares; a row without a declaration gets no data access at all.
      grantDataAccess(
        operationFunction,
        operation.access ?? {},
        {
          table: stores.table,
          filesBucket: stores.filesBucket,
          logBucket: readsLog ? stores.logBucket : undefined,
        },
        { idempotent: operation.idempotent },
      );

      // No extra permission for the console's test-invoke stage: it halves the Lambda permissions.
      const integration = new LambdaIntegration(operationFunction, { allowTestInvoke: false });
      for (const httpMethod of methodsOfRow(operation)) {
        // resourceForPath reuses the resources an earlier row created.
        const method = props.restApi.root.resourceForPath(operation.path).addMethod(httpMethod, integration, {
          operationName: httpMethod === operation.method ? operation.id : `${operation.id}${httpMethod}`,
          // Wallet login is how a wallet gets a credential: it cannot need one. Without the
          // authorizer there is no usage identifier either, so no usage plan applies.
          ...(operation.authorization === 'none'
            ? { authorizationType: AuthorizationType.NONE, apiKeyRequired: false }
            : {}),
        });
        if (operation.authorization === 'none') {
          Validations.of(method).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason:
              `Public by design (authorization 'none' in the operation table): ${operation.summary}. ` +
              'Its handler reads no principal; the stage throttles public routes harder.',
          });
        }
      }
      if (takesCursor(operation)) cursorKey.grantTo(operationFunction);
      if (operation.backgroundJobs)
        props.backgroundJobs.allowStart(operationFunction, operation.backgroundJobs);
      functions.set(operation.id, operationFunction);
    }
    this.functions = functions;
    this.functionStacks = functionStacks;
  }
}
