/**
 * CloudFormation caps a stack at 500 resources, and each operation is about ten: its function,
 * role, policy, log group and errors alarm, and in the API its method(s), Lambda permission(s)
 * and path resources. So the functions live in nested stacks, one per folder of handlers
 * (`categories`, `objects`, `webhooks`, ...), each function with its role, policy, log group and
 * errors alarm (see `monitoring.ts`); the root stack keeps the API and the shared resources.
 *
 * References between the root and a nested stack become parameters and outputs, wired by CDK.
 * The buckets alone come in as parameters named here (`FilesBucketArn`, `LogBucketArn`, ...):
 * cdk-nag names a finding after the ARN's reference, and the company part of object keys is an
 * acknowledged wildcard (`<FilesBucketArn>/companies/*`), so its name must be known when the
 * acknowledgement is written, before CDK names the parameters it creates.
 */
import { CfnParameter, NestedStack } from 'aws-cdk-lib';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { Operation } from '../lambdas/operation-row.js';
import type { DataStores } from './operation-access.js';
import { serviceStackOf } from './service-stack.js';

/** `categories/list-categories` → `categories`: the folder of the handler, whose nested stack holds its function. */
export const functionGroupOf = (operation: Pick<Operation, 'handler'>): string => {
  const [folder] = operation.handler.split('/');
  return folder ?? operation.handler;
};

/** `categories` → `CategoriesFunctions`: the nested stack's construct id. */
export const functionStackId = (group: string): string =>
  `${group
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Functions`;

export interface OperationFunctionsStackProps {
  /** The handler folder the stack is for. */
  group: string;
  /** The root's table and buckets. */
  stores: DataStores;
}

export class OperationFunctionsStack extends NestedStack {
  /** The table (referenced across stacks by CDK) and the buckets, as this stack's parameters. */
  readonly stores: DataStores;

  constructor(scope: Construct, id: string, props: OperationFunctionsStackProps) {
    super(scope, id, {
      description: `${serviceStackOf(scope).stackName}: the functions of the ${props.group} operations`,
    });
    const importedBucket = (name: string, bucket: IBucket): IBucket => {
      const parameter = (suffix: string, value: string) => {
        this.setParameter(`${name}${suffix}`, value);
        return new CfnParameter(this, `${name}${suffix}`, { type: 'String' }).valueAsString;
      };
      return Bucket.fromBucketAttributes(this, name, {
        bucketArn: parameter('Arn', bucket.bucketArn),
        bucketName: parameter('Name', bucket.bucketName),
      });
    };
    const { table, filesBucket, logBucket } = props.stores;
    let importedLogBucket: IBucket | undefined;
    this.stores = {
      table,
      filesBucket: importedBucket('FilesBucket', filesBucket),
      // Only stacks whose functions read the log get its parameters.
      get logBucket() {
        if (!logBucket) return undefined;
        importedLogBucket ??= importedBucket('LogBucket', logBucket);
        return importedLogBucket;
      },
    };
  }
}
