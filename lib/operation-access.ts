/**
 * Least privilege, derived: a function's data permissions are exactly the actions its access
 * declaration names (the `access` column of the operation table, or the declaration of a job
 * function), on exactly the resources they apply to. Nothing here widens a declaration: no
 * `*` action, no whole-bucket object access, no index that is not named.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Operation } from '../lambdas/operation-row.js';
import { UPLOAD_STAGING_PREFIX } from '../lambdas/repositories/file-repository.js';
import { COMPANY_FILES_PREFIX } from '../lambdas/repositories/file-store.js';
import { idempotencyPartition } from '../lambdas/repositories/idempotency-store.js';
import { LOG_PREFIX } from '../lambdas/repositories/log-tile-store.js';

/** What a function may do with the table and the files bucket (see `Operation.access`). */
export type DataAccess = NonNullable<Operation['access']>;
export type TableAction = NonNullable<DataAccess['table']>[number];

/** File bytes and images: `companies/<companyId>/...` (see `file-repository.ts`, `file-store.ts`). */
export const FILE_KEY_PATTERN = `${COMPANY_FILES_PREFIX}*`;
/** Staging keys presigned uploads land on: `uploads/<companyId>/<uploadId>` (see `file-repository.ts`). */
export const UPLOAD_KEY_PATTERN = `${UPLOAD_STAGING_PREFIX}*`;

/** The key pattern of each S3 list of a declaration. */
const KEY_PATTERNS = { files: FILE_KEY_PATTERN, uploads: UPLOAD_KEY_PATTERN } as const;

/**
 * Partition keys of idempotency records (`T#<tenant>#IDEMPOTENCY`, see
 * `lambdas/repositories/idempotency-store.ts`): the only items the idempotency layer touches.
 */
export const IDEMPOTENCY_ITEM_PARTITIONS = idempotencyPartition('*');

/**
 * What the idempotency layer calls: put (the claim, which returns the record it found, so no
 * GetItem), update (done), delete (failed).
 */
export const IDEMPOTENCY_ACTIONS: readonly TableAction[] = ['PutItem', 'UpdateItem', 'DeleteItem'];

export interface DataStores {
  table: ITable;
  filesBucket: IBucket;
  /** The Object Lock bucket holding the log's files under `log/` (for rows declaring `log`). */
  logBucket?: IBucket;
}

/** The log's tiles and checkpoints in the Object Lock bucket (see `log-tile-store.ts`). */
export const LOG_KEY_PATTERN = `${LOG_PREFIX}*`;

/** Read access to the log's files; `ListBucket` on `log/` only, so that a missing tile is 404, not 403. */
export function logReadStatements(logBucket: IBucket): PolicyStatement[] {
  return [
    new PolicyStatement({ actions: ['s3:GetObject'], resources: [logBucket.arnForObjects(LOG_KEY_PATTERN)] }),
    new PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [logBucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': [LOG_KEY_PATTERN] } },
    }),
  ];
}

/** The ARN of one global secondary index (never `index/*`). */
const indexArn = (table: ITable, indexName: string): string => `${table.tableArn}/index/${indexName}`;

/**
 * The IAM statements of a declaration: table actions on the table, `Query` on each named index,
 * object actions on the files bucket's `companies/*` (`files`) and `uploads/*` (`uploads`)
 * keys, `ListBucket` on the bucket.
 *
 * @example
 * dataAccessStatements({ table: ['GetItem'], indexes: ['gsi5'] }, stores);
 * // [{ dynamodb:GetItem on the table }, { dynamodb:Query on .../index/gsi5 }]
 */
function dataAccessStatements(access: DataAccess, stores: DataStores): PolicyStatement[] {
  const statements: PolicyStatement[] = [];
  const tableActions = [...new Set(access.table ?? [])];
  if (tableActions.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: tableActions.map((action) => `dynamodb:${action}`),
        resources: [stores.table.tableArn],
      }),
    );
  }
  const indexes = [...new Set(access.indexes ?? [])];
  if (indexes.length > 0) {
    statements.push(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexes.map((indexName) => indexArn(stores.table, indexName)),
      }),
    );
  }
  for (const [list, keyPattern] of Object.entries(KEY_PATTERNS) as [keyof typeof KEY_PATTERNS, string][]) {
    const objectActions = [...new Set(access[list] ?? [])].filter((action) => action !== 'ListBucket');
    if (objectActions.length === 0) continue;
    statements.push(
      new PolicyStatement({
        actions: objectActions.map((action) => `s3:${action}`),
        resources: [stores.filesBucket.arnForObjects(keyPattern)],
      }),
    );
  }
  if (access.files?.includes('ListBucket') || access.uploads?.includes('ListBucket')) {
    statements.push(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [stores.filesBucket.bucketArn] }),
    );
  }
  if ((access.log ?? []).length > 0) {
    if (!stores.logBucket) throw new Error('A row declares log access but the stack gave no log bucket');
    statements.push(...logReadStatements(stores.logBucket));
  }
  return statements;
}

/** The statement that lets an idempotent operation keep its idempotency records, and only those. */
function idempotencyStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: IDEMPOTENCY_ACTIONS.map((action) => `dynamodb:${action}`),
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [IDEMPOTENCY_ITEM_PARTITIONS] } },
  });
}

/**
 * cdk-nag reports an ARN built from a bucket's ARN as `<LogicalId.Arn>/suffix`, or, in a nested
 * stack that has the bucket's ARN as a parameter, `<ParameterName>/suffix`; the finding id of
 * such a resource, for a resource-level acknowledgement.
 */
function wildcardResourceFinding(bucket: IBucket, suffix: string): string {
  const resolved = Stack.of(bucket).resolve(bucket.bucketArn) as {
    'Fn::GetAtt'?: [string, string];
    Ref?: string;
  };
  const reference = resolved['Fn::GetAtt'] ? `${resolved['Fn::GetAtt'][0]}.Arn` : resolved.Ref;
  if (!reference) throw new Error(`Cannot name the ARN of ${bucket.node.path} for cdk-nag`);
  return `AwsSolutions-IAM5[Resource::<${reference}>/${suffix}]`;
}

/** The one wildcard of log access: tile and checkpoint names follow the log's size. */
export function acknowledgeLogKeys(role: import('aws-cdk-lib/aws-iam').IRole, logBucket: IBucket): void {
  Validations.of(role).acknowledge({
    id: wildcardResourceFinding(logBucket, LOG_KEY_PATTERN),
    reason:
      'The log files are log/tile/<level>/<index>[.p/<width>] and log/checkpoints/<size>, named by the ' +
      "log's size at run time; IAM fixes the log/ prefix (Object Lock keeps what is written).",
  });
}

/**
 * Grants a function its declared data access (and, for idempotent operations, its idempotency
 * records), and acknowledges the one wildcard that remains: the company part of file keys.
 */
export function grantDataAccess(
  lambdaFunction: LambdaFunction,
  access: DataAccess,
  stores: DataStores,
  options: { idempotent?: boolean } = {},
): void {
  for (const statement of dataAccessStatements(access, stores)) lambdaFunction.addToRolePolicy(statement);
  if (options.idempotent) lambdaFunction.addToRolePolicy(idempotencyStatement(stores.table));
  const role = lambdaFunction.role;
  if (!role) throw new Error(`${lambdaFunction.node.path} has no role`);
  if ((access.log ?? []).length > 0 && stores.logBucket) acknowledgeLogKeys(role, stores.logBucket);
  for (const [list, keyPattern] of Object.entries(KEY_PATTERNS) as [keyof typeof KEY_PATTERNS, string][]) {
    if (!(access[list] ?? []).some((action) => action !== 'ListBucket')) continue;
    Validations.of(role).acknowledge({
      id: wildcardResourceFinding(stores.filesBucket, keyPattern),
      reason:
        `Objects are keyed ${keyPattern.replace('*', '<companyId>/<id>')}: the company is the caller's and ` +
        'the id is new per request, both known only at run time (the handler checks the company), so IAM ' +
        'can fix the prefix but not what follows it.',
    });
  }
}
