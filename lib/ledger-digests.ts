/**
 * The ledger's anchor: a bucket of digests under S3 Object Lock in COMPLIANCE mode (no one,
 * the account's root included, can change or delete a digest before its retention ends), and a
 * scheduled function that writes a digest of every chain head into it.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectLockRetention } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { bundledFunction } from './bundled-function.js';
import { jobEntry } from './project-paths.js';

/** How long a digest cannot be changed or deleted (context `digestRetentionDays` overrides). */
export const DEFAULT_DIGEST_RETENTION_DAYS = 365;
/** How often a digest is written (context `digestIntervalMinutes` overrides). */
export const DEFAULT_DIGEST_INTERVAL_MINUTES = 60;

export interface LedgerDigestsProps {
  table: ITable;
  retentionDays?: number;
  intervalMinutes?: number;
}

export class LedgerDigests extends Construct {
  readonly bucket: Bucket;
  readonly digestFunction: NodejsFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: LedgerDigestsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'DigestBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true, // required by Object Lock
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(
        Duration.days(props.retentionDays ?? DEFAULT_DIGEST_RETENTION_DAYS),
      ),
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.digestFunction = bundledFunction(this, 'CreateLedgerDigestFunction', {
      entry: jobEntry('create-ledger-digest'),
      description: 'Writes a digest (RFC 6962 Merkle root over every chain head) to the Object Lock bucket',
      environment: { TABLE_NAME: props.table.tableName, DIGEST_BUCKET_NAME: this.bucket.bucketName },
      timeout: Duration.minutes(5),
    });
    props.table.grantReadData(this.digestFunction);
    // The digest sequence counter is one UpdateItem.
    props.table.grant(this.digestFunction, 'dynamodb:UpdateItem');
    this.bucket.grantPut(this.digestFunction);

    this.schedule = new Rule(this, 'DigestSchedule', {
      description: 'Writes a ledger digest on a fixed schedule',
      schedule: Schedule.rate(Duration.minutes(props.intervalMinutes ?? DEFAULT_DIGEST_INTERVAL_MINUTES)),
      targets: [new LambdaFunction(this.digestFunction, { retryAttempts: 2 })],
    });
  }
}
