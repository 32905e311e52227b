/**
 * What a million calls of each API operation cost, and of each operation group (the files of
 * `lambdas/operations/`). The operations, their functions, memory and architecture, their
 * authorizer and its cache, and the KMS, SQS and EventBridge actions their roles allow come
 * from the synthesized templates (each API method names its operation); the durations and the
 * DynamoDB and S3 calls come from the bench (`bench-figures.ts`).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  API_GATEWAY_REST_REQUEST,
  DYNAMODB_READ_REQUEST_UNIT,
  DYNAMODB_WRITE_REQUEST_UNIT,
  EVENTBRIDGE_CUSTOM_EVENT,
  KMS_ASYMMETRIC_REQUEST,
  KMS_SYMMETRIC_REQUEST,
  LAMBDA_REQUEST,
  lambdaGbSecondPrice,
  S3_READ_REQUEST,
  S3_WRITE_REQUEST,
  SQS_FIFO_REQUEST,
} from './aws-prices.js';
import type { BenchFigures, OperationFigures } from './bench-figures.js';
import type { StackTemplate } from './synthesized-templates.js';
import { functionReferencedBy, type TemplateFunction } from './template-functions.js';

/** The folder whose files are the operation groups. */
const OPERATION_GROUPS_FOLDER = join(__dirname, '..', '..', 'lambdas', 'operations');

/** S3 requests billed at the PUT, COPY, POST, LIST price; DeleteObjects is a POST. */
const S3_WRITE_COMMANDS = new Set([
  'PutObject',
  'CopyObject',
  'PostObject',
  'ListObjects',
  'ListObjectsV2',
  'ListObjectVersions',
  'CreateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'DeleteObjects',
]);
/** S3 requests that are free. */
const S3_FREE_COMMANDS = new Set(['DeleteObject', 'AbortMultipartUpload']);

/** The role actions that make one request of a priced service per call (at most one each: an estimate). */
const KMS_SYMMETRIC_ACTIONS = ['kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKey*'];
const KMS_ASYMMETRIC_ACTIONS = ['kms:Sign', 'kms:Verify', 'kms:GetPublicKey'];
const SQS_SEND_ACTIONS = ['sqs:SendMessage', 'sqs:SendMessageBatch'];
const EVENTBRIDGE_PUT_ACTIONS = ['events:PutEvents'];

/** USD per million calls, by what is billed. */
export interface CostParts {
  apiGateway: number;
  authorizer: number;
  lambda: number;
  dynamoDb: number;
  s3: number;
  kms: number;
  sqs: number;
  eventBridge: number;
}

export interface OperationCost {
  operationId: string;
  group: string;
  /** The function that serves it, `<stack>/<logical id>`. */
  functionPath: string;
  memoryMb: number;
  architecture: string;
  /** The bench's median duration, ms; undefined when not measured. */
  durationMs?: number;
  usdPerMillion: CostParts & { total: number };
  /** What the bench did not measure for it (its duration, its DynamoDB and S3 calls). */
  unmeasured: string[];
}

export interface GroupCost {
  group: string;
  operations: OperationCost[];
  /** USD per million calls spread evenly over the group's operations. */
  meanUsdPerMillion: number;
  cheapest: OperationCost;
  dearest: OperationCost;
  /** Operations of the group with something unmeasured: their figures are lower bounds. */
  incomplete: string[];
}

/** How the authorizer in front of the API is called, from the templates. */
export interface AuthorizerFacts {
  functionPath: string;
  memoryMb: number;
  architecture: string;
  /** `AuthorizerResultTtlInSeconds`: 0 means it runs on every call. */
  resultTtlSeconds: number;
  /** The bench's duration of a row named `authorizer`, ms; undefined when not measured. */
  durationMs?: number;
}

/** The bench row whose duration is the authorizer's. */
export const AUTHORIZER_BENCH_ROW = 'authorizer';

/**
 * The cost per million calls of every operation the templates' API methods name, with the
 * bench's figures, and the operations' groups.
 */
export function operationCosts(
  templates: readonly StackTemplate[],
  figures: BenchFigures,
): { operations: OperationCost[]; groups: GroupCost[]; authorizers: AuthorizerFacts[] } {
  const groupOf = operationGroups();
  const operations: OperationCost[] = [];
  const authorizers = new Map<string, AuthorizerFacts>();
  for (const stack of templates) {
    for (const resource of Object.values(stack.template.Resources)) {
      if (resource.Type !== 'AWS::ApiGateway::Method') continue;
      const method = resource.Properties as {
        HttpMethod: string;
        OperationName?: string;
        AuthorizationType?: string;
        AuthorizerId?: unknown;
        Integration?: { Uri?: unknown };
      };
      // HEAD responds with the GET's function: one operation, counted once.
      if (!method.OperationName || method.HttpMethod === 'HEAD' || method.HttpMethod === 'OPTIONS') continue;
      const operationFunction = functionReferencedBy(templates, stack, method.Integration?.Uri);
      if (!operationFunction) continue;
      const authorizer =
        method.AuthorizationType === 'CUSTOM'
          ? authorizerOf(templates, stack, method.AuthorizerId, figures.byOperation.get(AUTHORIZER_BENCH_ROW))
          : undefined;
      if (authorizer) authorizers.set(authorizer.functionPath, authorizer);
      operations.push(
        operationCost(
          method.OperationName,
          groupOf.get(method.OperationName) ?? 'other',
          operationFunction,
          authorizer,
          figures.byOperation.get(method.OperationName),
        ),
      );
    }
  }
  return { operations, groups: groupCosts(operations), authorizers: [...authorizers.values()] };
}

/** What one million calls of an operation cost, part by part. */
export function operationCost(
  operationId: string,
  group: string,
  operationFunction: TemplateFunction,
  authorizer: AuthorizerFacts | undefined,
  figures: OperationFigures | undefined,
): OperationCost {
  const million = 1e6;
  const unmeasured: string[] = [];
  const durationMs = figures?.durationMs;
  if (durationMs === undefined) unmeasured.push('duration');
  if (figures?.readRequestUnits === undefined) unmeasured.push('DynamoDB and S3 calls');
  const allows = (actions: string[]) =>
    actions.some((action) => operationFunction.allowedActions.has(action));
  const parts: CostParts = {
    apiGateway: million * API_GATEWAY_REST_REQUEST.usd,
    // With a result TTL above 0 the authorizer runs once per TTL and caller: every call is the bound.
    authorizer: authorizer
      ? million * lambdaInvocationUsd(authorizer.memoryMb, authorizer.architecture, authorizer.durationMs)
      : 0,
    lambda:
      million * lambdaInvocationUsd(operationFunction.memoryMb, operationFunction.architecture, durationMs),
    dynamoDb:
      million *
      ((figures?.readRequestUnits ?? 0) * DYNAMODB_READ_REQUEST_UNIT.usd +
        (figures?.writeRequestUnits ?? 0) * DYNAMODB_WRITE_REQUEST_UNIT.usd),
    s3: million * s3RequestsUsd(figures?.s3Commands ?? {}),
    kms:
      million *
      ((allows(KMS_SYMMETRIC_ACTIONS) ? KMS_SYMMETRIC_REQUEST.usd : 0) +
        (allows(KMS_ASYMMETRIC_ACTIONS) ? KMS_ASYMMETRIC_REQUEST.usd : 0)),
    // The delivery queue is FIFO: the higher of SQS's two request prices.
    sqs: allows(SQS_SEND_ACTIONS) ? million * SQS_FIFO_REQUEST.usd : 0,
    eventBridge: allows(EVENTBRIDGE_PUT_ACTIONS) ? million * EVENTBRIDGE_CUSTOM_EVENT.usd : 0,
  };
  const total = Object.values(parts).reduce((sum, each) => sum + each, 0);
  return {
    operationId,
    group,
    functionPath: `${operationFunction.stackName}/${operationFunction.logicalId}`,
    memoryMb: operationFunction.memoryMb,
    architecture: operationFunction.architecture,
    ...(durationMs === undefined ? {} : { durationMs }),
    usdPerMillion: { ...parts, total },
    unmeasured,
  };
}

/**
 * One invocation: the request, and the duration (rounded up to the millisecond, as Lambda
 * bills it) at the function's memory; without a duration, the request alone.
 */
export function lambdaInvocationUsd(
  memoryMb: number,
  architecture: string,
  durationMs: number | undefined,
): number {
  const gbSeconds = ((memoryMb / 1024) * Math.ceil(durationMs ?? 0)) / 1000;
  return LAMBDA_REQUEST.usd + gbSeconds * lambdaGbSecondPrice(architecture).usd;
}

/** The price of one call's S3 requests. */
function s3RequestsUsd(commands: Record<string, number>): number {
  let usd = 0;
  for (const [command, count] of Object.entries(commands)) {
    if (S3_FREE_COMMANDS.has(command)) continue;
    usd += count * (S3_WRITE_COMMANDS.has(command) ? S3_WRITE_REQUEST.usd : S3_READ_REQUEST.usd);
  }
  return usd;
}

function authorizerOf(
  templates: readonly StackTemplate[],
  stack: StackTemplate,
  authorizerId: unknown,
  figures: OperationFigures | undefined,
): AuthorizerFacts | undefined {
  const logicalId = (authorizerId as { Ref?: string } | undefined)?.Ref;
  const authorizer = logicalId ? stack.template.Resources[logicalId] : undefined;
  if (authorizer?.Type !== 'AWS::ApiGateway::Authorizer') return undefined;
  const properties = authorizer.Properties as {
    AuthorizerUri?: unknown;
    AuthorizerResultTtlInSeconds?: number;
  };
  const authorizerFunction = functionReferencedBy(templates, stack, properties.AuthorizerUri);
  if (!authorizerFunction) return undefined;
  return {
    functionPath: `${authorizerFunction.stackName}/${authorizerFunction.logicalId}`,
    memoryMb: authorizerFunction.memoryMb,
    architecture: authorizerFunction.architecture,
    // API Gateway's default when the template sets none.
    resultTtlSeconds: properties.AuthorizerResultTtlInSeconds ?? 300,
    ...(figures?.durationMs === undefined ? {} : { durationMs: figures.durationMs }),
  };
}

/** Each operation id's group: the name of the file of `lambdas/operations/` that holds its row. */
function operationGroups(): Map<string, string> {
  const groupOf = new Map<string, string>();
  for (const file of readdirSync(OPERATION_GROUPS_FOLDER).filter((name) => name.endsWith('.ts'))) {
    const group = basename(file, '.ts');
    const exported = require(join(OPERATION_GROUPS_FOLDER, file)) as Record<string, unknown>;
    for (const rows of Object.values(exported)) {
      if (rows && typeof rows === 'object')
        for (const operationId of Object.keys(rows)) groupOf.set(operationId, group);
    }
  }
  return groupOf;
}

function groupCosts(operations: readonly OperationCost[]): GroupCost[] {
  const byGroup = new Map<string, OperationCost[]>();
  for (const operation of operations)
    byGroup.set(operation.group, [...(byGroup.get(operation.group) ?? []), operation]);
  return [...byGroup].map(([group, members]) => {
    const sorted = [...members].sort((a, b) => a.usdPerMillion.total - b.usdPerMillion.total);
    return {
      group,
      operations: members,
      meanUsdPerMillion: members.reduce((sum, each) => sum + each.usdPerMillion.total, 0) / members.length,
      cheapest: sorted[0]!,
      dearest: sorted[sorted.length - 1]!,
      incomplete: members.filter((each) => each.unmeasured.length > 0).map((each) => each.operationId),
    };
  });
}
