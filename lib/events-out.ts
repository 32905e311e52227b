/**
 * Events out: every committed ledger event on the stack's EventBridge bus and to signed webhooks.
 * The table stream (new images) feeds the publisher through an event source mapping filtered on
 * ledger event items, in order per shard (one batch per shard at a time, so per object), with
 * batch-failure reporting and unbounded retries (no event is skipped). The publisher puts each
 * event on the bus and queues its webhook deliveries on an SQS FIFO queue (one message group
 * per delivery lane), with a dead-letter queue, read one message at a time by the delivery
 * function. Signing secrets are sealed with a KMS key of their own: the create and rotate
 * functions may only encrypt with it, the delivery function only decrypt.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DELIVERY_METRICS } from '../lambdas/jobs/deliver-webhooks.js';
import { type OperationId, operationList } from '../lambdas/operations.js';
import { WEBHOOK_QUEUE_URL_ENVIRONMENT } from '../lambdas/repositories/delivery-queue-environment.js';
import { LEDGER_EVENT_INSERT_FILTER } from '../lambdas/repositories/ledger-event-entity.js';
import { TABLE_NAME_ENVIRONMENT } from '../lambdas/shared/clients.js';
import { EVENT_BUS_NAME_ENVIRONMENT } from '../lambdas/shared/event-bus.js';
import { SECRETS_KEY_ID_ENVIRONMENT } from '../lambdas/shared/secret-box.js';
import { bundledFunction, METRICS_NAMESPACE } from './bundled-function.js';
import type { FailedWork } from './failed-work.js';
import { allowKeyUse, guardedKeyPolicy } from './key-policy.js';
import { ALARM_PERIOD } from './monitoring.js';
import { type DataAccess, grantDataAccess } from './operation-access.js';
import { jobEntry } from './project-paths.js';

/**
 * The delivery function: fans events out (reads them and the company's subscriptions, records
 * deliveries), reads deliveries, subscriptions and ledger events, records attempts, marks
 * subscriptions failing. The publisher needs no table access: what it publishes is in the
 * stream records, and it hands the fan-out to the queue.
 */
const DELIVERY_ACCESS: DataAccess = { table: ['GetItem', 'PutItem', 'UpdateItem', 'Query'] };

/** Alarm thresholds (docs/events.md). */
const DELIVERY_DLQ_ALARM = { threshold: 1, evaluationPeriods: 1 } as const;
const DELIVERY_ERROR_RATE_ALARM = {
  thresholdPercent: 50,
  minimumAttempts: 20,
  evaluationPeriods: 3,
} as const;
const PUBLISHER_ITERATOR_AGE_ALARM = { thresholdMs: 5 * 60 * 1000, evaluationPeriods: 2 } as const;

export interface EventsOutProps {
  table: Table;
  filesBucket: IBucket;
  failedWork: FailedWork;
}

export class EventsOut extends Construct {
  readonly eventBus: EventBus;
  readonly secretsKey: Key;
  readonly deliveryQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly publisherFunction: NodejsFunction;
  readonly deliveryFunction: NodejsFunction;

  constructor(scope: Construct, id: string, props: EventsOutProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;

    this.eventBus = new EventBus(this, 'EventBus', { eventBusName: `${stackName}-events` });
    this.secretsKey = new Key(this, 'WebhookSecretsKey', {
      description: `Seals the webhook signing secrets of ${stackName}`,
      enableKeyRotation: true,
      policy: guardedKeyPolicy(this),
    });

    this.deadLetterQueue = new Queue(this, 'DeliveryDeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the dead-letter queue of the webhook delivery queue.',
    });
    this.deliveryQueue = new Queue(this, 'DeliveryQueue', {
      fifo: true,
      // High-throughput FIFO: the limit applies per message group (lane), not per queue.
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six times the delivery function's timeout, as Lambda advises for SQS sources.
      visibilityTimeout: Duration.minutes(3),
      // A delivery retries for 24 h and may wait behind its lane as long again.
      retentionPeriod: Duration.days(14),
      // Retries are scheduled by the function (about 40 in 24 h); this catches only messages the
      // function itself keeps failing on.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 100 },
    });

    this.publisherFunction = bundledFunction(this, 'PublishLedgerEventsFunction', {
      entry: jobEntry('publish-ledger-events'),
      description: 'Puts committed ledger events on the EventBridge bus and queues their webhook deliveries',
      environment: {
        [TABLE_NAME_ENVIRONMENT]: props.table.tableName,
        [EVENT_BUS_NAME_ENVIRONMENT]: this.eventBus.eventBusName,
        [WEBHOOK_QUEUE_URL_ENVIRONMENT]: this.deliveryQueue.queueUrl,
      },
      timeout: Duration.minutes(1),
    });
    this.eventBus.grantPutEventsTo(this.publisherFunction);
    this.publisherFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deliveryQueue.queueArn] }),
    );
    // Its IAM5 "*" acknowledgement (bundledFunction's) also covers the event source mapping's
    // dynamodb:ListStreams, which supports no resource-level permissions either.
    this.publisherFunction.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        reportBatchItemFailures: true,
        // A bad record is isolated, retried, then handed to the failed-work queue: it holds its
        // shard back for a bounded time and the events after it flow.
        ...props.failedWork.streamFailureHandling(),
        // One batch per shard at a time keeps each object's events in order.
        parallelizationFactor: 1,
        filters: [FilterCriteria.filter(LEDGER_EVENT_INSERT_FILTER)],
      }),
    );

    this.deliveryFunction = bundledFunction(this, 'DeliverWebhooksFunction', {
      entry: jobEntry('deliver-webhooks'),
      description: 'Delivers one queued webhook event, signed; schedules its retry when it fails',
      environment: {
        [TABLE_NAME_ENVIRONMENT]: props.table.tableName,
        [WEBHOOK_QUEUE_URL_ENVIRONMENT]: this.deliveryQueue.queueUrl,
      },
      // 10 s for the receiver, the rest for the table and KMS.
      timeout: Duration.seconds(30),
    });
    grantDataAccess(this.deliveryFunction, DELIVERY_ACCESS, props);
    allowKeyUse(this.secretsKey, this.deliveryFunction, ['kms:Decrypt']);
    this.deliveryFunction.addToRolePolicy(
      new PolicyStatement({
        // SendMessage: a fan-out queues its deliveries.
        actions: ['sqs:ChangeMessageVisibility', 'sqs:SendMessage'],
        resources: [this.deliveryQueue.queueArn],
      }),
    );
    this.deliveryFunction.addEventSource(
      new SqsEventSource(this.deliveryQueue, {
        // One message per invocation: a slow receiver holds up only its own lane.
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: 50,
      }),
    );
  }

  /** Gives the operations whose rows declare it the secrets key (encrypt) and the queue (send). */
  grantOperations(operationFunctions: ReadonlyMap<OperationId, NodejsFunction>): void {
    for (const [operationId, operationFunction] of operationFunctions) {
      const access: DataAccess = operationList.find((row) => row.id === operationId)?.access ?? {};
      // Exactly the actions declared (the grant helpers would add ReEncrypt*, GenerateDataKey*, ...).
      if (access.secrets?.length) {
        allowKeyUse(
          this.secretsKey,
          operationFunction,
          access.secrets.map((action) => `kms:${action}`),
        );
        operationFunction.addEnvironment(SECRETS_KEY_ID_ENVIRONMENT, this.secretsKey.keyArn);
      }
      if (access.deliveryQueue?.length) {
        operationFunction.addToRolePolicy(
          new PolicyStatement({
            actions: access.deliveryQueue.map((action) => `sqs:${action}`),
            resources: [this.deliveryQueue.queueArn],
          }),
        );
        operationFunction.addEnvironment(WEBHOOK_QUEUE_URL_ENVIRONMENT, this.deliveryQueue.queueUrl);
      }
    }
  }

  /** Alarms: a message in the dead-letter queue, a high rate of failed attempts, a publisher falling behind. */
  addAlarms(alarmTopic: ITopic): void {
    const notify = new SnsAction(alarmTopic);
    const deadLetters = this.deadLetterQueue
      .metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' })
      .createAlarm(this, 'DeliveryDeadLetterQueueAlarm', {
        alarmDescription:
          'A webhook delivery message reached the dead-letter queue: the delivery function failed on it 100 times.',
        threshold: DELIVERY_DLQ_ALARM.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: DELIVERY_DLQ_ALARM.evaluationPeriods,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    const deliveryMetric = (metricName: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: Stack.of(this).stackName },
        statistic: 'Sum',
        period: ALARM_PERIOD,
      });
    const errorRate = new MathExpression({
      expression: `IF(attempts >= ${DELIVERY_ERROR_RATE_ALARM.minimumAttempts}, 100 * failures / attempts, 0)`,
      usingMetrics: {
        attempts: deliveryMetric(DELIVERY_METRICS.attempts),
        failures: deliveryMetric(DELIVERY_METRICS.failures),
      },
      label: 'Webhook delivery error rate (%)',
      period: ALARM_PERIOD,
    }).createAlarm(this, 'DeliveryErrorRateAlarm', {
      alarmDescription: `More than ${DELIVERY_ERROR_RATE_ALARM.thresholdPercent}% of webhook delivery attempts failed in each of ${DELIVERY_ERROR_RATE_ALARM.evaluationPeriods} periods of 5 minutes (periods with at least ${DELIVERY_ERROR_RATE_ALARM.minimumAttempts} attempts).`,
      threshold: DELIVERY_ERROR_RATE_ALARM.thresholdPercent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: DELIVERY_ERROR_RATE_ALARM.evaluationPeriods,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const iteratorAge = this.publisherFunction
      .metric('IteratorAge', { statistic: 'Maximum', period: ALARM_PERIOD })
      .createAlarm(this, 'PublisherIteratorAgeAlarm', {
        alarmDescription: 'The ledger event publisher is more than 5 minutes behind the table stream.',
        threshold: PUBLISHER_ITERATOR_AGE_ALARM.thresholdMs,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: PUBLISHER_ITERATOR_AGE_ALARM.evaluationPeriods,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    for (const alarm of [deadLetters, errorRate, iteratorAge]) {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }
  }
}
