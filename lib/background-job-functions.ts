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
import { jobEntry } from './project-paths.js';

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
    props.table.grantReadWriteData(remove);
    props.filesBucket.grantDelete(remove);
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
    caller: IFunction & { addEnvironment(key: string, value: string): unknown },
    jobs: readonly BackgroundJobName[],
  ): void {
    for (const job of jobs) {
      const jobFunction = this.functions.get(job);
      if (!jobFunction) throw new Error(`No function for background job ${job}`);
      jobFunction.grantInvoke(caller);
      caller.addEnvironment(JOB_FUNCTION_ENVIRONMENT[job], jobFunction.functionName);
    }
  }
}
