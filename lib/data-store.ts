/**
 * Where the data lives: the single DynamoDB table (keys and indexes from the shared table
 * definition, so the stack and the local table cannot drift), the S3 bucket of file bytes, and
 * the bucket of S3 server access logs. All are kept when the stack is deleted, except in trial
 * mode (`lib/stateful-resources.ts` decides, deletion protection of the table included).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { UPLOAD_STAGING_PREFIX } from '../lambdas/repositories/file-repository.js';
import {
  TABLE_INDEXES,
  TABLE_PARTITION_KEY,
  TABLE_SORT_KEY,
  TABLE_STREAM_VIEW_TYPE,
  TIME_TO_LIVE_ATTRIBUTE,
} from '../lambdas/repositories/table-definition.js';
import { logRetentionOf } from './log-retention.js';
import { bucketRemovalOf } from './stateful-resources.js';

export class DataStore extends Construct {
  readonly table: Table;
  readonly filesBucket: Bucket;
  /** S3 server access logs of the stack's buckets (who read, wrote or deleted which object). */
  readonly accessLogsBucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // S3 delivers server access logs only to buckets with SSE-S3 (not SSE-KMS).
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      ...bucketRemovalOf(this),
      lifecycleRules: [{ expiration: Duration.days(logRetentionOf(this)) }],
    });
    Validations.of(this.accessLogsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket is the target of the server access logs of the other buckets; logging it as well ' +
        'would need one more bucket that would raise the same finding.',
    });

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: TABLE_SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Expired wallet sessions and abandoned upload sessions delete themselves.
      timeToLiveAttribute: TIME_TO_LIVE_ATTRIBUTE,
      // Ledger events are published from the stream (lib/events-out.ts).
      stream: StreamViewType[TABLE_STREAM_VIEW_TYPE],
    });
    for (const index of TABLE_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    this.filesBucket = new Bucket(this, 'FilesBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      // Emptied on delete in trial mode only (CDK's auto-delete custom resource).
      ...bucketRemovalOf(this),
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'files/',
      lifecycleRules: [
        {
          // A presigned upload that was never completed (sessions last 15 minutes): its staged
          // bytes go after a day, and their noncurrent versions a day later.
          id: 'ExpireAbandonedUploads',
          prefix: UPLOAD_STAGING_PREFIX,
          expiration: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(1),
        },
        // Parts of a streamed upload whose abort failed.
        { id: 'AbortIncompleteMultipartUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }
}
