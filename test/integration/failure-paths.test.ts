/**
 * No loss in silence (`lib/failed-work.ts`): each asynchronous path has a destination for what
 * fails, and the rest flows. Driven here with local mode's machinery, which applies the
 * template's settings (`stack-functions.ts`):
 * - a job's asynchronous invocation that keeps throwing is retried, then handed to its
 *   on-failure destination, whose consumer marks the import failed; a record the consumer
 *   cannot handle ends in the dead-letter queue;
 * - a poison record of the table stream is isolated (bisection), retried, then handed to the
 *   stream's destination, and the records around it are handled.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { RUN_FAILED } from '../../lambdas/domain/jobs/given-up-runs';
import { handler as recordFailedJobs } from '../../lambdas/jobs/record-failed-jobs';
import { JOB_FUNCTION_ENVIRONMENT } from '../../lambdas/shared/background-jobs';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { StackEnvironment } from '../../local/embedded-stack';
import { LocalFailureQueues } from '../../local/functions/failure-queues';
import { functionBundles } from '../../local/functions/function-bundles';
import { type AsyncInvocationRecord, LocalFunctions } from '../../local/functions/local-functions';
import { type StreamFailureRecord, startTableStream } from '../../local/table-stream';
import { getImport, postImportJson } from '../support/import-requests';
import { companyPrincipal } from '../support/principals';

const PROBE_ENTRY = join(__dirname, '..', 'support', 'fixtures', 'runtime-probe.ts');
const IMPORT_FUNCTION = 'local-import-objects';
const JOB_FAILURES = 'arn:aws:sqs:us-east-1:000000000000:job-failures';
const FAILED_WORK = 'arn:aws:sqs:us-east-1:000000000000:failed-work';

describe("a background job's run that keeps failing", () => {
  it('is retried twice, then handed to its on-failure destination; another invocation runs', async () => {
    // Prepare
    const givenUp: AsyncInvocationRecord[] = [];
    const functions = new LocalFunctions({
      functions: [
        {
          name: 'probe-job',
          logicalId: 'ProbeJob',
          arn: 'arn:aws:lambda:us-east-1:000000000000:function:probe-job',
          entry: PROBE_ENTRY,
          environment: {},
          timeoutSeconds: 10,
          memoryMb: 256,
          roleArn: 'arn:aws:iam::000000000000:role/probe-job',
          policies: [],
        },
      ],
      bundles: functionBundles([PROBE_ENTRY]),
      region: 'us-east-1',
      logDirectory: mkdtempSync(join(tmpdir(), 'failure-paths-logs-')),
      platformEnvironment: () => ({}),
      asyncInvocationHandling: () => ({
        retryAttempts: 2,
        maxEventAgeSeconds: 3600,
        onFailure: async (record) => {
          givenUp.push(record);
        },
      }),
      asyncRetryPauseMs: 10,
    });
    try {
      // Act
      functions.invokeAsync('probe-job', { action: 'throw' });
      functions.invokeAsync('probe-job', { action: 'count' });
      await functions.asyncInvocationsSettled();
      // Assess: the failing one ran three times and was given up on; the other was not.
      expect(givenUp).toEqual([
        expect.objectContaining({
          requestContext: expect.objectContaining({
            functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:probe-job:$LATEST',
            condition: 'RetriesExhausted',
            approximateInvokeCount: 3,
          }),
          requestPayload: { action: 'throw' },
          responsePayload: { errorType: 'TypeError', errorMessage: 'the probe was asked to fail' },
        }),
      ]);
    } finally {
      await functions.close();
    }
  });

  it('ends as a failed import through the job-failure queue; what cannot be handled ends in the dead letters', async () => {
    // Prepare: an import job (pending: its file is to be uploaded), and the queues as
    // lib/failed-work.ts declares them.
    const principal = companyPrincipal();
    const created = await postImportJson(principal, { size: 100, fileName: 'objects.csv' });
    expect(created.body).toMatchObject({ status: 'pending' });
    process.env[JOB_FUNCTION_ENVIRONMENT.importObjects] = IMPORT_FUNCTION;
    const directory = mkdtempSync(join(tmpdir(), 'failed-work-'));
    const queues = new LocalFailureQueues({
      stack: {
        queues: [
          {
            arn: JOB_FAILURES,
            properties: { RedrivePolicy: { deadLetterTargetArn: FAILED_WORK, maxReceiveCount: 2 } },
          },
          { arn: FAILED_WORK, properties: {} },
        ],
        eventSourceMappings: [{ EventSourceArn: JOB_FAILURES, FunctionName: 'record-failed-jobs' }],
      },
      invoke: (_functionName, event) => recordFailedJobs(event as never),
      directory,
      redeliveryPauseMs: 10,
    });
    const givenUpRun = (functionName: string) => ({
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId: 'r-1',
        functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}:$LATEST`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: 3,
      },
      requestPayload: { companyId: principal.tenantId, jobId: created.body.id },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'Error', errorMessage: 'boom' },
    });
    // Act
    await queues.send(JOB_FAILURES, givenUpRun(IMPORT_FUNCTION));
    await queues.send(JOB_FAILURES, givenUpRun('no-such-job'));
    const job = await getImport(principal, created.body.id);
    // Assess
    expect(job.body).toMatchObject({ status: 'failed', error: { code: RUN_FAILED } });
    const deadLetters = readFileSync(join(directory, 'failed-work.jsonl'), 'utf8').trim().split('\n');
    expect(deadLetters.map((line) => JSON.parse(line).requestContext.functionArn)).toEqual([
      'arn:aws:lambda:us-east-1:000000000000:function:no-such-job:$LATEST',
    ]);
  });
});

describe('a poison record of the table stream', () => {
  it('is isolated, retried, handed to the destination, and the records around it are handled', async () => {
    // Prepare: seven records of a partition of this test; the fourth fails every batch it is in.
    const partition = `FAILURE-PATHS#${Date.now()}`;
    const handled: string[] = [];
    const givenUp: StreamFailureRecord[] = [];
    let poisonSequenceNumber: string | undefined;
    const stream = await startTableStream({
      environment: process.env as StackEnvironment,
      checkpointFile: join(mkdtempSync(join(tmpdir(), 'failure-paths-stream-')), 'checkpoint.json'),
      startingPosition: 'LATEST',
      // The other files' writes share the stream: large reads keep this reader up with them.
      batchSize: 1000,
      filter: { dynamodb: { Keys: { pk: { S: [partition] } } } },
      handler: async (event: DynamoDBStreamEvent) => {
        const keys = event.Records.map((record) => record.dynamodb?.Keys?.sk?.S as string);
        const poison = event.Records.find((record) => record.dynamodb?.Keys?.sk?.S === 'item-4');
        if (poison) {
          poisonSequenceNumber = poison.dynamodb?.SequenceNumber;
          throw new Error('a record this handler cannot take');
        }
        handled.push(...keys);
        return { batchItemFailures: [] };
      },
      failureHandling: {
        retryAttempts: 2,
        maxRecordAgeSeconds: -1,
        bisectBatchOnError: true,
        onFailure: async (record) => {
          givenUp.push(record);
        },
      },
      failedBatchPauseMs: 10,
      pollIntervalMs: 10,
    });
    try {
      // Act
      for (let item = 1; item <= 7; item++) {
        await dynamoDb.send(
          new PutCommand({ TableName: tableName(), Item: { pk: partition, sk: `item-${item}` } }),
        );
      }
      const deadline = Date.now() + 60_000;
      while ((handled.length < 6 || givenUp.length < 1) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await stream.stop();
    }
    // Assess
    expect(handled.sort()).toEqual(['item-1', 'item-2', 'item-3', 'item-5', 'item-6', 'item-7']);
    expect(givenUp).toEqual([
      expect.objectContaining({
        requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
        DDBStreamBatchInfo: expect.objectContaining({
          batchSize: 1,
          startSequenceNumber: poisonSequenceNumber,
          endSequenceNumber: poisonSequenceNumber,
        }),
      }),
    ]);
  }, 90_000);
});
