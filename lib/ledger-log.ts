/**
 * The transparency log's infrastructure: the Object Lock bucket (COMPLIANCE mode: no one, the
 * account's root included, can change or delete a tile or checkpoint before its retention
 * ends), the KMS Ed25519 key that signs checkpoints (the private key never leaves KMS), and the
 * sequencer function, started every minute, which integrates the outbox into the log.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectLockRetention,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LOG_ORIGIN_ENVIRONMENT, SIGNING_KEY_ID_ENVIRONMENT } from '../lambdas/domain/ledger/log-signer.js';
import {
  DEFAULT_CHECKPOINT_SECONDS,
  SCHEDULE_PERIOD_SECONDS,
  SEQUENCER_TIMING_ENVIRONMENT,
  sequencerTiming,
} from '../lambdas/domain/ledger/sequencer-timing.js';
import { outboxPartition } from '../lambdas/repositories/log-outbox.js';
import {
  positionPartition,
  SEQUENCER_STATE_PARTITION,
} from '../lambdas/repositories/log-state-repository.js';
import { DIGEST_BUCKET_NAME_ENVIRONMENT, TABLE_NAME_ENVIRONMENT } from '../lambdas/shared/clients.js';
import { bundledFunction } from './bundled-function.js';
import { acknowledgeLogKeys, LOG_KEY_PATTERN, logReadStatements } from './operation-access.js';
import { jobEntry } from './project-paths.js';

/** How long a log file cannot be changed or deleted (context `digestRetentionDays` overrides). */
export const DEFAULT_LOG_RETENTION_DAYS = 365;
/** The longest wait from commit to checkpoint, in seconds (context `ledgerCheckpointSeconds`). */
export { DEFAULT_CHECKPOINT_SECONDS };

/** Partition keys the sequencer writes: its state, the outbox and the position items. */
export const OUTBOX_PARTITIONS = outboxPartition('*');
export const POSITION_PARTITIONS = positionPartition('*');

export interface LedgerLogProps {
  table: ITable;
  /** Where the bucket's S3 server access logs go. */
  accessLogsBucket: IBucket;
  retentionDays?: number;
  /** The log's origin (the key name in checkpoints); default: the stack's name. */
  origin: string;
  checkpointSeconds?: number;
}

export class LedgerLog extends Construct {
  readonly bucket: Bucket;
  readonly signingKey: Key;
  readonly sequencerFunction: NodejsFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: LedgerLogProps) {
    super(scope, id);
    // Construct id kept from the digest era, so that a deployed stack keeps its locked bucket.
    this.bucket = new Bucket(this, 'DigestBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true, // required by Object Lock
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(
        Duration.days(props.retentionDays ?? DEFAULT_LOG_RETENTION_DAYS),
      ),
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'digests/',
    });
    this.signingKey = new Key(this, 'CheckpointSigningKey', {
      description: "Signs the ledger log's checkpoints (Ed25519, C2SP signed-note)",
      keySpec: KeySpec.ECC_NIST_EDWARDS25519,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Started every minute (EventBridge's shortest rate); each run lasts the minute and an
    // overlap with the next, polls every half of the bound (at most 20 s), and hands the lease
    // over to the next run (lambdas/domain/ledger/sequencer-timing.ts). A bound it cannot keep
    // (under 10 s) is refused here, at synth.
    const checkpointSeconds = props.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS;
    const timing = sequencerTiming(checkpointSeconds);
    this.sequencerFunction = bundledFunction(this, 'SequencerFunction', {
      entry: jobEntry('sequence-ledger'),
      description: 'Integrates committed ledger events into the transparency log and signs a checkpoint',
      environment: {
        [TABLE_NAME_ENVIRONMENT]: props.table.tableName,
        [DIGEST_BUCKET_NAME_ENVIRONMENT]: this.bucket.bucketName,
        [SIGNING_KEY_ID_ENVIRONMENT]: this.signingKey.keyArn,
        [LOG_ORIGIN_ENVIRONMENT]: props.origin,
        [SEQUENCER_TIMING_ENVIRONMENT.pollSeconds]: String(timing.pollSeconds),
        [SEQUENCER_TIMING_ENVIRONMENT.runSeconds]: String(timing.runSeconds),
        [SEQUENCER_TIMING_ENVIRONMENT.leaseSeconds]: String(timing.leaseSeconds),
        [SEQUENCER_TIMING_ENVIRONMENT.leaseRetrySeconds]: String(timing.leaseRetrySeconds),
      },
      // Well over a run (80 s) and a last cycle of a full batch.
      timeout: Duration.minutes(5),
    });
    // Consecutive runs overlap on purpose; the lease keeps to one writer at a time.
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SEQUENCER_STATE_PARTITION] } },
      }),
    );
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query', 'dynamodb:BatchWriteItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [OUTBOX_PARTITIONS, POSITION_PARTITIONS] },
        },
      }),
    );
    for (const statement of logReadStatements(this.bucket)) this.sequencerFunction.addToRolePolicy(statement);
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [this.bucket.arnForObjects(LOG_KEY_PATTERN)],
      }),
    );
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [this.signingKey.keyArn] }),
    );
    acknowledgeLogKeys(this.sequencerFunction.role!, this.bucket);

    this.schedule = new Rule(this, 'SequencerSchedule', {
      description: 'Runs the ledger sequencer every minute',
      schedule: Schedule.rate(Duration.seconds(SCHEDULE_PERIOD_SECONDS)),
      targets: [new LambdaFunction(this.sequencerFunction, { retryAttempts: 0 })],
    });
  }
}
