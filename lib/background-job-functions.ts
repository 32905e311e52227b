/**
 * One Lambda function per background job (see `lambdas/shared/background-jobs.ts`). A job that
 * starts another run of itself (the subcategory removal, the import) has a fixed name its own
 * environment and policy can carry without a circular reference.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  DEFAULT_IMPORT_ROWS_PER_SECOND,
  IMPORT_ROWS_PER_SECOND_ENVIRONMENT,
} from '../lambdas/domain/imports/import-pace.js';
import { type BackgroundJobName, JOB_FUNCTION_ENVIRONMENT } from '../lambdas/shared/background-jobs.js';
import {
  DIGEST_BUCKET_NAME_ENVIRONMENT,
  FILES_BUCKET_NAME_ENVIRONMENT,
  TABLE_NAME_ENVIRONMENT,
} from '../lambdas/shared/clients.js';
import { bundledFunction } from './bundled-function.js';
import type { FailedWork } from './failed-work.js';
import { type DataAccess, grantDataAccess } from './operation-access.js';
import { jobEntry } from './project-paths.js';
import { isTrial } from './stateful-resources.js';

/**
 * What the removal job calls (`lambdas/jobs/remove-subcategory-data.ts`): the subcategory's
 * objects (gsi5) and each object's files (gsi1), the subcategory and its image records
 * (GetItem, Query), batch deletes of objects, markers and file records, the counters' removal
 * mark (UpdateItem), and the bytes of files (by version) and images (by key).
 */
export const REMOVE_SUBCATEGORY_DATA_ACCESS: DataAccess = {
  table: ['GetItem', 'Query', 'BatchWriteItem', 'UpdateItem'],
  indexes: ['gsi1', 'gsi5'],
  files: ['DeleteObject', 'DeleteObjectVersion'],
};

/**
 * What the import job calls (`lambdas/jobs/import-objects.ts`, `lambdas/domain/imports/*`,
 * `import-repository.ts`): the job item and the rows' traces (GetItem, Query of its own
 * partitions), the company's categories (`listCategories` of every status by creation time:
 * gsi3, and the company's counters) and each category's subcategories (Query); objects,
 * categories and subcategories created or updated through the domain code, with their ledger
 * events, name markers and counters, and the rows' traces, in transactions (PutItem,
 * UpdateItem); the job's progress (UpdateItem); and the file, read from
 * `uploads/<company>/imports/<id>` (GetObject). It deletes nothing.
 */
export const IMPORT_OBJECTS_ACCESS: DataAccess = {
  table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
  indexes: ['gsi3'],
  uploads: ['GetObject'],
};

/**
 * What the export job calls (`lambdas/jobs/export-objects.ts`, `lambdas/domain/exports/*`,
 * `export-repository.ts`, `walkObjects`): the job item, the company's counters, an object by
 * externalId (GetItem), the list's index for the export's filters and sort (any of gsi1-gsi6,
 * as the object list) and each category's partition for the names (Query), the job's end
 * (UpdateItem), and the file, streamed by a multipart upload to `uploads/<company>/exports/<id>`
 * (PutObject covers the parts and their completion; AbortMultipartUpload when it fails).
 */
export const EXPORT_OBJECTS_ACCESS: DataAccess = {
  table: ['GetItem', 'Query', 'UpdateItem'],
  indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'],
  uploads: ['PutObject', 'AbortMultipartUpload'],
  // An as-of export with proofs=true reads the log's tiles.
  log: ['GetObject'],
};

/** The import's runs hand over after 10 minutes; 15 (Lambda's most) covers the last chunk. */
const IMPORT_OBJECTS_TIMEOUT = Duration.minutes(15);
/** An export streams the whole list in one run. */
const EXPORT_OBJECTS_TIMEOUT = Duration.minutes(15);

/**
 * Each job function's reserved concurrency: its most runs at once over all companies, kept
 * apart from the account's pool, so that jobs never take the concurrency the authorizer and
 * the API functions need (and a job storm is queued by Lambda, not refused). A trial stack
 * reserves none: a new account's concurrency limit (as low as 10) leaves no room to reserve.
 * Context `jobConcurrency=<n>` sets another bound for every job.
 */
export const JOB_RESERVED_CONCURRENCY: Record<BackgroundJobName, number> = {
  removeSubcategoryData: 2,
  importObjects: 5,
  exportObjects: 5,
};

export interface BackgroundJobFunctionsProps {
  table: ITable;
  filesBucket: IBucket;
  failedWork: FailedWork;
  logBucket: IBucket;
}

export class BackgroundJobFunctions extends Construct {
  readonly functions: ReadonlyMap<BackgroundJobName, NodejsFunction>;

  constructor(scope: Construct, id: string, props: BackgroundJobFunctionsProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const stores = { table: props.table, filesBucket: props.filesBucket };
    const baseEnvironment = {
      [TABLE_NAME_ENVIRONMENT]: props.table.tableName,
      [FILES_BUCKET_NAME_ENVIRONMENT]: props.filesBucket.bucketName,
    };

    const removeName = `${stackName}-remove-subcategory-data`.slice(0, 64);
    const remove = bundledFunction(this, 'RemoveSubcategoryDataFunction', {
      entry: jobEntry('remove-subcategory-data'),
      description: "Removes a removed subcategory's objects and images in bounded batches",
      environment: { ...baseEnvironment, [JOB_FUNCTION_ENVIRONMENT.removeSubcategoryData]: removeName },
      functionName: removeName,
      // Each run stops starting batches after 60 s and hands over; 5 minutes covers the last batch.
      timeout: Duration.minutes(5),
    });
    grantDataAccess(remove, REMOVE_SUBCATEGORY_DATA_ACCESS, stores);
    this.allowSelfStart(remove, removeName);

    const importName = `${stackName}-import-objects`.slice(0, 64);
    const importObjects = bundledFunction(this, 'ImportObjectsFunction', {
      entry: jobEntry('import-objects'),
      description:
        "Writes an import job's rows as objects, in chunks; hands over to a new run before its time is up",
      environment: {
        ...baseEnvironment,
        [JOB_FUNCTION_ENVIRONMENT.importObjects]: importName,
        [IMPORT_ROWS_PER_SECOND_ENVIRONMENT]: String(importRowsPerSecondOf(this)),
      },
      functionName: importName,
      timeout: IMPORT_OBJECTS_TIMEOUT,
    });
    grantDataAccess(importObjects, IMPORT_OBJECTS_ACCESS, stores);
    this.allowSelfStart(importObjects, importName);

    const exportObjects = bundledFunction(this, 'ExportObjectsFunction', {
      entry: jobEntry('export-objects'),
      description: 'Streams an export too large for a response into the files bucket',
      environment: { ...baseEnvironment, [DIGEST_BUCKET_NAME_ENVIRONMENT]: props.logBucket.bucketName },
      timeout: EXPORT_OBJECTS_TIMEOUT,
    });
    grantDataAccess(exportObjects, EXPORT_OBJECTS_ACCESS, { ...stores, logBucket: props.logBucket });

    this.functions = new Map<BackgroundJobName, NodejsFunction>([
      ['removeSubcategoryData', remove],
      ['importObjects', importObjects],
      ['exportObjects', exportObjects],
    ]);
    const concurrency = jobConcurrencyOf(this);
    for (const [name, job] of this.functions) {
      props.failedWork.guardJob(name, job);
      const reserved = concurrency ?? JOB_RESERVED_CONCURRENCY[name];
      if (!isTrial(this) && reserved !== undefined) {
        (job.node.defaultChild as CfnFunction).reservedConcurrentExecutions = reserved;
      }
    }
  }

  /**
   * Lets a job start another run of itself: by name, not by reference (a function whose policy
   * names its own ARN is a circular dependency).
   */
  private allowSelfStart(job: NodejsFunction, functionName: string): void {
    job.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [
          Stack.of(this).formatArn({
            service: 'lambda',
            resource: 'function',
            resourceName: functionName,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
  }

  /** Lets an operation's function start the given jobs. */
  allowStart(
    caller: IFunction & {
      addEnvironment(key: string, value: string): unknown;
      addToRolePolicy(statement: PolicyStatement): void;
    },
    jobs: readonly BackgroundJobName[],
  ): void {
    for (const job of jobs) {
      const jobFunction = this.functions.get(job);
      if (!jobFunction) throw new Error(`No function for background job ${job}`);
      // The function itself, not `:*` (grantInvoke's versions and aliases): jobs run unqualified.
      caller.addToRolePolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [jobFunction.functionArn] }),
      );
      caller.addEnvironment(JOB_FUNCTION_ENVIRONMENT[job], jobFunction.functionName);
    }
  }
}

/** The `jobConcurrency` context value: a whole number of at least 1, or nothing. */
const jobConcurrencyOf = (scope: Construct): number | undefined =>
  wholeNumberContext(scope, 'jobConcurrency', 1);

/**
 * The `importRowsPerSecond` context value (rows a second for all of a company's imports
 * together, `import-pace.ts`; 0 for no pace), by default {@link DEFAULT_IMPORT_ROWS_PER_SECOND}.
 */
const importRowsPerSecondOf = (scope: Construct): number =>
  wholeNumberContext(scope, 'importRowsPerSecond', 0) ?? DEFAULT_IMPORT_ROWS_PER_SECOND;

/** A context value that must be a whole number of at least `least`; undefined when not given. */
function wholeNumberContext(scope: Construct, key: string, least: number): number | undefined {
  const given: unknown = scope.node.tryGetContext(key);
  if (given === undefined) return undefined;
  const value = Number(given);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(`${key} must be a whole number of at least ${least} (got ${String(given)})`);
  }
  return value;
}
