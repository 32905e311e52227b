/**
 * The ledger's anchor: a bucket of digests under S3 Object Lock in COMPLIANCE mode (no one,
 * the account's root included, can change or delete a digest before its retention ends), and a
 * scheduled function that writes a digest of every chain head into it.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectLockRetention,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { bundledFunction } from './bundled-function.js';
import { wildcardResourceFinding } from './operation-access.js';
import { jobEntry } from './project-paths.js';

/** How long a digest cannot be changed or deleted (context `digestRetentionDays` overrides). */
export const DEFAULT_DIGEST_RETENTION_DAYS = 365;
/** How often a digest is written (context `digestIntervalMinutes` overrides). */
export const DEFAULT_DIGEST_INTERVAL_MINUTES = 60;

/** Partition keys of the chain heads the digest reads (`LEDGER_HEADS#<shard>`, see `ledger-repository.ts`). */
export const LEDGER_HEAD_PARTITIONS = 'LEDGER_HEADS#*';
/** Partition key of the digest sequence counter (see `digest-store.ts`). */
export const DIGEST_SEQUENCE_PARTITION = 'LEDGER';
/** Where digests are written in the bucket (see `digest-store.ts`). */
export const DIGEST_KEY_PATTERN = 'digests/*';

export interface LedgerDigestsProps {
  table: ITable;
  /** Where the digest bucket's S3 server access logs go. */
  accessLogsBucket: IBucket;
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
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'digests/',
    });

    this.digestFunction = bundledFunction(this, 'CreateLedgerDigestFunction', {
      entry: jobEntry('create-ledger-digest'),
      description: 'Writes a digest (RFC 6962 Merkle root over every chain head) to the Object Lock bucket',
      environment: { TABLE_NAME: props.table.tableName, DIGEST_BUCKET_NAME: this.bucket.bucketName },
      timeout: Duration.minutes(5),
    });
    // It reads the chain heads (one Query per shard), moves the sequence counter, and adds one
    // object under digests/: no other item, no other key, no read of the bucket.
    this.digestFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_HEAD_PARTITIONS] } },
      }),
    );
    this.digestFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [DIGEST_SEQUENCE_PARTITION] } },
      }),
    );
    this.digestFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects(DIGEST_KEY_PATTERN)],
      }),
    );
    Validations.of(this.digestFunction.role!).acknowledge({
      id: wildcardResourceFinding(this.bucket, DIGEST_KEY_PATTERN),
      reason:
        'Each digest is a new object digests/<sequence>.json, its name known only when written; the ' +
        'function may add objects under digests/ and nothing else (Object Lock keeps them unchanged).',
    });

    this.schedule = new Rule(this, 'DigestSchedule', {
      description: 'Writes a ledger digest on a fixed schedule',
      schedule: Schedule.rate(Duration.minutes(props.intervalMinutes ?? DEFAULT_DIGEST_INTERVAL_MINUTES)),
      targets: [new LambdaFunction(this.digestFunction, { retryAttempts: 2 })],
    });
  }
}
