/**
 * Where the data lives: the single DynamoDB table (keys and indexes from the shared table
 * definition, so the stack and the local table cannot drift) and the S3 bucket of file bytes.
 * Both are kept when the stack is deleted.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  TABLE_INDEXES,
  TABLE_PARTITION_KEY,
  TABLE_SORT_KEY,
  TIME_TO_LIVE_ATTRIBUTE,
} from '../lambdas/repositories/table-definition.js';

export class DataStore extends Construct {
  readonly table: Table;
  readonly filesBucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: TABLE_SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      // Expired wallet sessions and abandoned upload sessions delete themselves.
      timeToLiveAttribute: TIME_TO_LIVE_ATTRIBUTE,
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
      removalPolicy: RemovalPolicy.RETAIN,
      // No autoDeleteObjects: it would add a custom-resource Lambda and could empty the bucket.
      autoDeleteObjects: false,
    });
  }
}
