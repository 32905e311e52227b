/**
 * The transparency log's infrastructure: the Object Lock bucket (COMPLIANCE mode: no one, the
 * account's root included, can change or delete a tile or checkpoint before its retention
 * ends), the KMS Ed25519 key that signs checkpoints (the private key never leaves KMS), and the
 * sequencer function, which integrates the outbox into the log, started by the outbox inserts
 * of the table stream (docs/ledger-sequencer.md): nothing runs while nobody writes.
 */
import { readFileSync } from 'node:fs';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
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
import { DEFAULT_BATCH_SIZE } from '../lambdas/domain/ledger/sequencer.js';
import {
  DEFAULT_CHECKPOINT_SECONDS,
  SEQUENCER_TIMEOUT_SECONDS,
  SEQUENCER_TIMING_ENVIRONMENT,
  sequencerTiming,
} from '../lambdas/domain/ledger/sequencer-timing.js';
import {
  checkWitnessTimeoutMs,
  WITNESS_POLICY_ENVIRONMENT,
  WITNESS_TIMEOUT_ENVIRONMENT,
} from '../lambdas/domain/ledger/witness-config.js';
import { OUTBOX_INSERT_FILTER, outboxPartition } from '../lambdas/repositories/log-outbox.js';
import {
  positionPartition,
  SEQUENCER_STATE_PARTITION,
} from '../lambdas/repositories/log-state-repository.js';
import { DIGEST_BUCKET_NAME_ENVIRONMENT, TABLE_NAME_ENVIRONMENT } from '../lambdas/shared/clients.js';
import { bundledFunction } from './bundled-function.js';
import type { FailedWork } from './failed-work.js';
import { allowKeyUse, guardedKeyPolicy } from './key-policy.js';
import { acknowledgeLogKeys, LOG_KEY_PATTERN, logReadStatements } from './operation-access.js';
import { jobEntry } from './project-paths.js';
import { bucketRemovalOf, isTrial, TRIAL_OBJECT_LOCK_DAYS } from './stateful-resources.js';

/** How long a log file cannot be changed or deleted (context `digestRetentionDays` overrides). */
const DEFAULT_LOG_RETENTION_DAYS = 365;
/** The longest wait from commit to checkpoint, in seconds (context `ledgerCheckpointSeconds`). */

/** Partition keys the sequencer writes: its state, the outbox and the position items. */
export const OUTBOX_PARTITIONS = outboxPartition('*');
export const POSITION_PARTITIONS = positionPartition('*');

/**
 * A failed run is retried this many times (a run drains the whole outbox, so a later trigger
 * integrates what a dropped one stood for; the function's errors alarm tells of each failure).
 */
export const SEQUENCER_RETRY_ATTEMPTS = 10;
/** Records older than this are dropped rather than retried, so that a failing shard moves on. */
export const SEQUENCER_MAX_RECORD_AGE_SECONDS = 3600;

export interface LedgerLogProps {
  table: ITable;
  /** Where the bucket's S3 server access logs go. */
  accessLogsBucket: IBucket;
  retentionDays?: number;
  /** The log's origin (the key name in checkpoints); default: the stack's name. */
  origin: string;
  checkpointSeconds?: number;
  /** Where the sequencer's trigger records the batches it gives up on. */
  failedWork: FailedWork;
  /**
   * The witness policy's text (C2SP tlog-policy; context `witnessPolicyFile` names the file):
   * the sequencer asks its witnesses to cosign and publishes a checkpoint once they meet its
   * quorum. Without it each checkpoint is published as signed.
   */
  witnessPolicy?: string;
  /** Each request to a witness, in ms (context `witnessTimeoutMs`; 3,000 by default). */
  witnessTimeoutMs?: number;
}

/** The context value naming the witness policy file. */
const WITNESS_POLICY_FILE_CONTEXT = 'witnessPolicyFile';
/** Lambda's limit on a function's whole environment is 4 KB: the policy may take most of it. */
const MAX_WITNESS_POLICY_BYTES = 3072;

/**
 * The text of the policy file named by context `witnessPolicyFile`, if any. Checked here as far
 * as a synth can without Web Crypto (the file is read, fits the environment, has a quorum line);
 * `bin/asset-registry.ts` parses it fully before the synth, and the sequencer at its first run
 * checks it names this log's key.
 */
export function witnessPolicyOf(scope: Construct): string | undefined {
  const file: unknown = scope.node.tryGetContext(WITNESS_POLICY_FILE_CONTEXT);
  if (file === undefined || file === '') return undefined;
  let text: string;
  try {
    text = readFileSync(String(file), 'utf8');
  } catch (error) {
    throw new Error(
      `${WITNESS_POLICY_FILE_CONTEXT}: ${String(file)} cannot be read (${(error as Error).message})`,
    );
  }
  if (Buffer.byteLength(text) > MAX_WITNESS_POLICY_BYTES) {
    throw new Error(
      `${WITNESS_POLICY_FILE_CONTEXT}: ${String(file)} is over ${MAX_WITNESS_POLICY_BYTES} bytes, ` +
        "more than the function's environment holds",
    );
  }
  if (!/^quorum[ \t]/m.test(text)) {
    throw new Error(`${WITNESS_POLICY_FILE_CONTEXT}: ${String(file)} has no quorum line (C2SP tlog-policy)`);
  }
  return text;
}

export class LedgerLog extends Construct {
  readonly bucket: Bucket;
  readonly signingKey: Key;
  readonly sequencerFunction: NodejsFunction;
  /** The table stream's outbox inserts, which start the sequencer. */
  readonly sequencerTrigger: DynamoEventSource;

  constructor(scope: Construct, id: string, props: LedgerLogProps) {
    super(scope, id);
    // Construct id kept from the digest era, so that a deployed stack keeps its locked bucket.
    this.bucket = new Bucket(this, 'DigestBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true, // required by Object Lock
      objectLockEnabled: true,
      // Trial mode: GOVERNANCE for a day, so that a trial stack can be emptied and deleted.
      objectLockDefaultRetention: isTrial(this)
        ? ObjectLockRetention.governance(Duration.days(TRIAL_OBJECT_LOCK_DAYS))
        : ObjectLockRetention.compliance(Duration.days(props.retentionDays ?? DEFAULT_LOG_RETENTION_DAYS)),
      ...bucketRemovalOf(this),
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'digests/',
    });
    this.signingKey = new Key(this, 'CheckpointSigningKey', {
      description: "Signs the ledger log's checkpoints (Ed25519, C2SP signed-note)",
      keySpec: KeySpec.ECC_NIST_EDWARDS25519,
      keyUsage: KeyUsage.SIGN_VERIFY,
      policy: guardedKeyPolicy(this),
    });

    // The bound gives the stream's batching window and the lease
    // (lambdas/domain/ledger/sequencer-timing.ts); one it cannot keep (under 10 s) is refused
    // here, at synth.
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
        [SEQUENCER_TIMING_ENVIRONMENT.runSeconds]: String(timing.runSeconds),
        [SEQUENCER_TIMING_ENVIRONMENT.leaseSeconds]: String(timing.leaseSeconds),
        [SEQUENCER_TIMING_ENVIRONMENT.leaseRetrySeconds]: String(timing.leaseRetrySeconds),
        ...(props.witnessPolicy ? { [WITNESS_POLICY_ENVIRONMENT]: props.witnessPolicy } : {}),
        // Refused here, at synth, when a cycle asking a witness twice would outlast the lease.
        ...(props.witnessTimeoutMs === undefined
          ? {}
          : {
              [WITNESS_TIMEOUT_ENVIRONMENT]: String(
                checkWitnessTimeoutMs(props.witnessTimeoutMs, timing.leaseSeconds, 'witnessTimeoutMs'),
              ),
            }),
      },
      // A run starts cycles for `runSeconds`; the rest is for its last cycle of a full batch.
      timeout: Duration.seconds(SEQUENCER_TIMEOUT_SECONDS),
    });
    // Runs started at once (one per stream shard) share the work through the lease, which keeps
    // to one writer at a time. No reserved concurrency: a new account's unreserved minimum would
    // refuse the deploy, and a run waiting for the lease ends within a cycle.
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SEQUENCER_STATE_PARTITION] } },
      }),
    );
    this.sequencerFunction.addToRolePolicy(
      new PolicyStatement({
        // Positions are put and integrated outbox items deleted in transactions of 100.
        actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
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
    allowKeyUse(this.signingKey, this.sequencerFunction, ['kms:Sign', 'kms:GetPublicKey']);
    acknowledgeLogKeys(this.sequencerFunction.role!, this.bucket);

    // Grants the stream's read actions on its ARN, and dynamodb:ListStreams, which takes no
    // resource (covered by bundledFunction's IAM5 "*" acknowledgement).
    this.sequencerTrigger = new DynamoEventSource(props.table, {
      // From the oldest record kept: outbox items left before this mapping existed are drained.
      startingPosition: StartingPosition.TRIM_HORIZON,
      // A full checkpoint batch starts a run at once; fewer wait up to the window.
      batchSize: DEFAULT_BATCH_SIZE,
      maxBatchingWindow: Duration.seconds(timing.batchingWindowSeconds),
      reportBatchItemFailures: true,
      retryAttempts: SEQUENCER_RETRY_ATTEMPTS,
      maxRecordAge: Duration.seconds(SEQUENCER_MAX_RECORD_AGE_SECONDS),
      // What it drops is integrated by a later run; recorded all the same, with the alarm.
      onFailure: props.failedWork.streamFailureDestination(),
      filters: [FilterCriteria.filter(OUTBOX_INSERT_FILTER)],
    });
    this.sequencerFunction.addEventSource(this.sequencerTrigger);
  }
}
