/**
 * No loss in silence (`lib/failed-work.ts`): the template gives each asynchronous path a
 * destination for what fails, bounds the background jobs' concurrency, and local mode reads the
 * same settings from it (`local/functions/stack-functions.ts`).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { JOB_RESERVED_CONCURRENCY } from '../../lib/background-job-functions';
import { JOB_INVOCATION_HANDLING, STREAM_FAILURE_HANDLING } from '../../lib/failed-work';
import { LocalFailureQueues } from '../../local/functions/failure-queues';
import { asyncHandlingOf, streamFailureHandlingOf } from '../../local/functions/stack-functions';
import { synthesizeLocalStack } from '../../local/synthesized/local-stack';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack';

let synthesized: SynthesizedStack;
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

beforeAll(() => {
  synthesized = synthesizeStack();
});

it('gives the publisher a bounded, bisecting stream mapping that sends what it gives up on to the failed-work queue', () => {
  // Prepare
  const { failedWork, eventsOut } = synthesized.stack;
  // Assess
  synthesized.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: synthesized.logicalIdOf(eventsOut.publisherFunction) },
    BisectBatchOnFunctionError: true,
    MaximumRetryAttempts: STREAM_FAILURE_HANDLING.retryAttempts,
    MaximumRecordAgeInSeconds: STREAM_FAILURE_HANDLING.maxRecordAgeSeconds,
    DestinationConfig: { OnFailure: { Destination: arnOf(synthesized.logicalIdOf(failedWork.queue)) } },
  });
  synthesized.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction) },
    DestinationConfig: { OnFailure: { Destination: arnOf(synthesized.logicalIdOf(failedWork.queue)) } },
  });
});

it("hands each job's given-up invocations to the job-failure queue, whose consumer marks the job failed", () => {
  // Prepare
  const { failedWork, backgroundJobs } = synthesized.stack;
  const jobFailures = synthesized.logicalIdOf(failedWork.jobFailureQueue);
  // Assess
  for (const job of backgroundJobs.functions.values()) {
    synthesized.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: synthesized.logicalIdOf(job) },
      MaximumRetryAttempts: JOB_INVOCATION_HANDLING.retryAttempts,
      MaximumEventAgeInSeconds: JOB_INVOCATION_HANDLING.maxEventAgeSeconds,
      DestinationConfig: { OnFailure: { Destination: arnOf(jobFailures) } },
    });
  }
  synthesized.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: { Ref: synthesized.logicalIdOf(failedWork.recorderFunction) },
    EventSourceArn: arnOf(jobFailures),
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
  synthesized.template.hasResourceProperties('AWS::SQS::Queue', {
    RedrivePolicy: {
      deadLetterTargetArn: arnOf(synthesized.logicalIdOf(failedWork.queue)),
      maxReceiveCount: 5,
    },
  });
});

it('alarms on failed work and on every job given up', () => {
  // Assess
  for (const queue of [synthesized.stack.failedWork.queue, synthesized.stack.failedWork.jobFailureQueue]) {
    synthesized.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [synthesized.logicalIdOf(queue), 'QueueName'] } },
      ],
      Threshold: 1,
      AlarmActions: [Match.anyValue()],
    });
  }
});

it("reserves each job's concurrency, and nothing of the API's", () => {
  // Prepare
  const functions = synthesized.template.findResources('AWS::Lambda::Function');
  const reserved = Object.entries(functions)
    .filter(([, resource]) => resource.Properties.ReservedConcurrentExecutions !== undefined)
    .map(([logicalId, resource]) => [logicalId, resource.Properties.ReservedConcurrentExecutions]);
  // Assess
  expect(Object.fromEntries(reserved)).toEqual(
    Object.fromEntries(
      [...synthesized.stack.backgroundJobs.functions].map(([name, job]) => [
        synthesized.logicalIdOf(job),
        JOB_RESERVED_CONCURRENCY[name],
      ]),
    ),
  );
});

it('takes the jobs’ concurrency from the context, and refuses a bound that is no whole number', () => {
  // Act
  const four = synthesizeStack({ jobConcurrency: '4' });
  // Assess
  const resources = four.template.toJSON().Resources;
  for (const job of four.stack.backgroundJobs.functions.values()) {
    expect(resources[four.logicalIdOf(job)].Properties.ReservedConcurrentExecutions).toBe(4);
  }
  expect(() => synthesizeStack({ jobConcurrency: '0' })).toThrow(
    /jobConcurrency must be a whole number of at least 1 \(got 0\)/,
  );
});

it('is applied by local mode as the template says', () => {
  // Prepare
  const local = synthesizeLocalStack({ region: 'us-east-1', corsAllowedOrigins: [] });
  const queues = new LocalFailureQueues({
    stack: local,
    invoke: async () => undefined,
    directory: '/nowhere',
  });
  // Act
  const publisher = streamFailureHandlingOf(local, local.workers.publishLedgerEvents, queues);
  const importJob = asyncHandlingOf(local, local.workers.importObjects, queues);
  // Assess
  expect(publisher).toEqual({
    retryAttempts: STREAM_FAILURE_HANDLING.retryAttempts,
    maxRecordAgeSeconds: STREAM_FAILURE_HANDLING.maxRecordAgeSeconds,
    bisectBatchOnError: true,
    onFailure: expect.any(Function),
  });
  expect(importJob).toEqual({
    retryAttempts: JOB_INVOCATION_HANDLING.retryAttempts,
    maxEventAgeSeconds: JOB_INVOCATION_HANDLING.maxEventAgeSeconds,
    onFailure: expect.any(Function),
  });
});
