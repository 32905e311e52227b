/** Events out on AWS: table stream → publisher → EventBridge bus and SQS FIFO → delivery function. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { LEDGER_EVENT_ENTITY } from '../../lambdas/repositories/ledger-repository';
import { STREAM_FAILURE_HANDLING } from '../../lib/failed-work';
import { policyActionsOfRole, type SynthesizedStack, synthesizeStack } from './synthesized-stack';

let synthesized: SynthesizedStack;
let template: Template;

beforeAll(() => {
  synthesized = synthesizeStack();
  template = synthesized.template;
});

const idOf = (construct: Parameters<SynthesizedStack['logicalIdOf']>[0]) =>
  synthesized.logicalIdOf(construct);

describe('events out', () => {
  it('gives the table a NEW_IMAGE stream', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('feeds the publisher from the stream: ledger event INSERTs only, in order, failures reported per record and bounded', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: idOf(synthesized.stack.eventsOut.publisherFunction) },
      EventSourceArn: { 'Fn::GetAtt': [idOf(synthesized.stack.dataStore.table), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      ParallelizationFactor: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: [LEDGER_EVENT_ENTITY] } } },
            }),
          },
        ],
      },
      // A bad record is retried a bounded number of times, then handed on (test/infra/failed-work.test.ts).
      MaximumRetryAttempts: STREAM_FAILURE_HANDLING.retryAttempts,
    });
  });

  it('queues deliveries on an encrypted FIFO queue with a dead-letter queue, read one message at a time', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 180,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(synthesized.stack.eventsOut.deadLetterQueue), 'Arn'] },
        maxReceiveCount: 100,
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: idOf(synthesized.stack.eventsOut.deliveryFunction) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 50 },
    });
  });

  it('lets the publisher put events on its bus and send to the queue, and only the delivery function decrypt secrets', () => {
    const publisher = policyActionsOfRole(
      template,
      idOf(synthesized.stack.eventsOut.publisherFunction.role!),
    );
    const delivery = policyActionsOfRole(template, idOf(synthesized.stack.eventsOut.deliveryFunction.role!));
    expect([...publisher]).toEqual(expect.arrayContaining(['events:PutEvents', 'sqs:SendMessage']));
    expect([...publisher]).not.toContain('kms:Decrypt');
    expect([...delivery]).toEqual(expect.arrayContaining(['kms:Decrypt', 'sqs:ChangeMessageVisibility']));
    expect([...delivery]).not.toContain('kms:Encrypt');
    for (const [operationId, operationFunction] of synthesized.stack.api.operationFunctions) {
      const actions = policyActionsOfRole(template, idOf(operationFunction.role!));
      expect({ operationId, decrypts: actions.has('kms:Decrypt') }).toEqual({ operationId, decrypts: false });
    }
  });

  it('alarms on the dead-letter queue, the delivery error rate and a publisher falling behind', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        {
          Name: 'QueueName',
          Value: { 'Fn::GetAtt': [idOf(synthesized.stack.eventsOut.deadLetterQueue), 'QueueName'] },
        },
      ],
      Threshold: 1,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmDescription: Match.stringLikeRegexp('webhook delivery attempts failed'),
      Metrics: Match.arrayWith([
        Match.objectLike({
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({ MetricName: 'WebhookDeliveryFailures' }),
          }),
        }),
      ]),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'IteratorAge' });
  });

  it('exports the bus', () => {
    template.hasOutput('EventBusName', { Value: { Ref: idOf(synthesized.stack.eventsOut.eventBus) } });
    template.hasOutput('EventBusArn', {});
  });
});
