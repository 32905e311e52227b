/**
 * The consumer of the job-failure queue (`lib/failed-work.ts`): each message is the record
 * Lambda sends to an asynchronous invocation's on-failure destination (the function, the
 * condition, the original payload). It marks the job that run was for (`given-up-runs.ts`).
 * A record it cannot read or handle is reported failed and, after five tries, goes to the
 * failed-work queue with its alarm.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordGivenUpRun } from '#domain/jobs/given-up-runs.js';
import {
  type BackgroundJobName,
  type BackgroundJobs,
  JOB_FUNCTION_ENVIRONMENT,
} from '#shared/background-jobs.js';
import { logger } from '#shared/observability.js';

/** The part of Lambda's destination record this reads. */
interface InvocationRecord {
  requestContext: { functionArn: string; condition: string; approximateInvokeCount: number };
  requestPayload: unknown;
}

/** The job whose function the record names (`arn:…:function:<name>[:<qualifier>]`). */
function jobOf(functionArn: string): BackgroundJobName | undefined {
  const functionName = functionArn.split(':')[6];
  return (Object.keys(JOB_FUNCTION_ENVIRONMENT) as BackgroundJobName[]).find(
    (name) => process.env[JOB_FUNCTION_ENVIRONMENT[name]] === functionName,
  );
}

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records) {
    try {
      const record = JSON.parse(message.body) as InvocationRecord;
      const name = jobOf(record.requestContext.functionArn);
      if (!name) throw new Error(`No job runs as ${record.requestContext.functionArn}`);
      const outcome = await recordGivenUpRun(name, record.requestPayload as BackgroundJobs[typeof name]);
      logger[outcome === 'logged' ? 'error' : 'warn']("A background job's run was given up on", {
        job: name,
        payload: record.requestPayload,
        condition: record.requestContext.condition,
        invocations: record.requestContext.approximateInvokeCount,
        outcome,
      });
    } catch (error) {
      logger.error('A job-failure record could not be handled; the queue offers it again', {
        messageId: message.messageId,
        error,
      });
      batchItemFailures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures };
};
