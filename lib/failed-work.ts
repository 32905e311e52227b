/**
 * Where asynchronous work that failed for good ends up, so that none is lost in silence:
 * - the table stream's mappings (the event publisher, the sequencer) retry a failing batch a
 *   bounded number of times, split it to isolate a bad record (the publisher), drop records
 *   older than a bound, and send what they give up on to the failed-work queue;
 * - each background job's asynchronous invocations (import, export, subcategory removal) are
 *   retried twice by Lambda, then handed to the job-failure queue, whose consumer
 *   (`lambdas/jobs/record-failed-jobs.ts`) marks the import or export failed, so that no job stays
 *   `running`; a record it cannot handle goes to the failed-work queue after five tries;
 * - an alarm fires on a message in the failed-work queue and on every job given up.
 * Local mode reads these settings from the synthesized template and applies them
 * (`local/table-stream.ts`, `local/functions/local-functions.ts`).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, type Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IDestination, IEventSourceDlq, IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type BackgroundJobName, JOB_FUNCTION_ENVIRONMENT } from '../lambdas/shared/background-jobs.js';
import { TABLE_NAME_ENVIRONMENT } from '../lambdas/shared/clients.js';
import { bundledFunction } from './bundled-function.js';
import { ALARM_PERIOD } from './monitoring.js';
import { type DataAccess, grantDataAccess } from './operation-access.js';
import { jobEntry } from './project-paths.js';

/** How a table stream mapping gives up on a batch (the publisher's; the sequencer has its own bounds). */
export const STREAM_FAILURE_HANDLING = {
  retryAttempts: 10,
  /** Records this old are given up on: a bad record holds its shard back for at most this long. */
  maxRecordAgeSeconds: 6 * 3600,
  bisectBatchOnError: true,
} as const;

/** Lambda's retries of a job's asynchronous invocation, and how long an event may wait. */
export const JOB_INVOCATION_HANDLING = { retryAttempts: 2, maxEventAgeSeconds: 6 * 3600 } as const;

/** The job-failure consumer reads and marks a job (GetItem, UpdateItem of the job item). */
const RECORD_FAILED_JOBS_ACCESS: DataAccess = { table: ['GetItem', 'UpdateItem'] };

/**
 * A queue as an on-failure destination (of an asynchronous invocation or of an event source
 * mapping) that grants the function exactly `sqs:SendMessage` on it: CDK's `SqsDestination` and
 * `SqsDlq` grant `GetQueueAttributes` and `GetQueueUrl` too, which sending needs not.
 */
class SendOnlyQueue implements IDestination, IEventSourceDlq {
  constructor(private readonly queue: IQueue) {}

  bind(_scope: unknown, user: IFunction): { destination: string } {
    user.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
    return { destination: this.queue.queueArn };
  }
}

/** Tries of a job-failure record before it goes to the failed-work queue. */
const JOB_FAILURE_RECEIVES = 5;

export interface FailedWorkProps {
  table: ITable;
  filesBucket: IBucket;
}

export class FailedWork extends Construct {
  /** Stream batches given up on, and job failures that could not be recorded. */
  readonly queue: Queue;
  /** The on-failure destination of the background jobs' asynchronous invocations. */
  readonly jobFailureQueue: Queue;
  readonly recorderFunction: NodejsFunction;

  constructor(scope: Construct, id: string, props: FailedWorkProps) {
    super(scope, id);
    const queueDefaults = {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    };
    this.queue = new Queue(this, 'FailedWorkQueue', queueDefaults);
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself where failed work ends up; its messages raise an alarm.',
    });
    this.jobFailureQueue = new Queue(this, 'JobFailureQueue', {
      ...queueDefaults,
      // The recorder marks a job failed within seconds; 5 minutes covers a slow run of it.
      visibilityTimeout: Duration.minutes(5),
      deadLetterQueue: { queue: this.queue, maxReceiveCount: JOB_FAILURE_RECEIVES },
    });

    this.recorderFunction = bundledFunction(this, 'RecordFailedJobsFunction', {
      entry: jobEntry('record-failed-jobs'),
      description: 'Marks failed the imports and exports whose runs Lambda gave up on',
      environment: { [TABLE_NAME_ENVIRONMENT]: props.table.tableName },
      timeout: Duration.minutes(1),
    });
    grantDataAccess(this.recorderFunction, RECORD_FAILED_JOBS_ACCESS, props);
    this.recorderFunction.addEventSource(
      new SqsEventSource(this.jobFailureQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );
  }

  /** The destination of what a stream mapping gives up on (the sequencer's has its own bounds). */
  streamFailureDestination(): IEventSourceDlq {
    return new SendOnlyQueue(this.queue);
  }

  /** The stream mapping settings that send what a mapping gives up on here. */
  streamFailureHandling() {
    return {
      retryAttempts: STREAM_FAILURE_HANDLING.retryAttempts,
      maxRecordAge: Duration.seconds(STREAM_FAILURE_HANDLING.maxRecordAgeSeconds),
      bisectBatchOnError: STREAM_FAILURE_HANDLING.bisectBatchOnError,
      onFailure: new SendOnlyQueue(this.queue),
    };
  }

  /** Bounds a job's asynchronous invocations and hands the ones given up on to the recorder. */
  guardJob(name: BackgroundJobName, job: NodejsFunction): void {
    job.configureAsyncInvoke({
      retryAttempts: JOB_INVOCATION_HANDLING.retryAttempts,
      maxEventAge: Duration.seconds(JOB_INVOCATION_HANDLING.maxEventAgeSeconds),
      onFailure: new SendOnlyQueue(this.jobFailureQueue),
    });
    // The recorder tells the jobs apart by the function a record names.
    this.recorderFunction.addEnvironment(JOB_FUNCTION_ENVIRONMENT[name], job.functionName);
  }

  /** Alarms: a message in the failed-work queue; a job's run given up on. */
  addAlarms(alarmTopic: ITopic): void {
    const notify = new SnsAction(alarmTopic);
    const alarms: Array<[id: string, metric: Metric, description: string]> = [
      [
        'FailedWorkAlarm',
        this.queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }),
        'Work was given up on: a table stream batch (publisher or sequencer) or a job failure that could not be recorded. See docs/operating.md.',
      ],
      [
        'JobGivenUpAlarm',
        this.jobFailureQueue.metricNumberOfMessagesSent({ period: ALARM_PERIOD, statistic: 'Sum' }),
        "A background job's run failed three times (Lambda gave up); an import or export was marked failed.",
      ],
    ];
    for (const [id, metric, alarmDescription] of alarms) {
      // One message is one piece of work given up on: the first one alarms.
      const alarm = metric.createAlarm(this, id, {
        alarmDescription,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }
  }
}
