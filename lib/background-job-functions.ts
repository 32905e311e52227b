/**
 * One Lambda function per background job (see `lambdas/shared/background-jobs.ts`). A job may
 * start another run of itself, so each has a fixed name its own environment can carry without
 * a circular reference.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { type BackgroundJobName, JOB_FUNCTION_ENVIRONMENT } from '../lambdas/shared/background-jobs.js';
import { bundledFunction } from './bundled-function.js';
import { type DataAccess, grantDataAccess } from './operation-access.js';
import { jobEntry } from './project-paths.js';

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

export interface BackgroundJobFunctionsProps {
  table: ITable;
  filesBucket: IBucket;
}

export class BackgroundJobFunctions extends Construct {
  readonly functions: ReadonlyMap<BackgroundJobName, NodejsFunction>;

  constructor(scope: Construct, id: string, props: BackgroundJobFunctionsProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const removeName = `${stackName}-remove-subcategory-data`.slice(0, 64);
    const remove = bundledFunction(this, 'RemoveSubcategoryDataFunction', {
      entry: jobEntry('remove-subcategory-data'),
      description: "Removes a removed subcategory's objects and images in bounded batches",
      environment: {
        TABLE_NAME: props.table.tableName,
        FILES_BUCKET_NAME: props.filesBucket.bucketName,
        [JOB_FUNCTION_ENVIRONMENT.removeSubcategoryData]: removeName,
      },
      functionName: removeName,
      // Each run stops starting batches after 60 s and hands over; 5 minutes covers the last batch.
      timeout: Duration.minutes(5),
    });
    grantDataAccess(remove, REMOVE_SUBCATEGORY_DATA_ACCESS, props);
    // By name, not by reference: a function whose policy names its own ARN is a circular dependency.
    remove.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [
          Stack.of(this).formatArn({
            service: 'lambda',
            resource: 'function',
            resourceName: removeName,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    this.functions = new Map([['removeSubcategoryData', remove]]);
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
