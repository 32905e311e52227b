/**
 * `npm start` resumes the import jobs that a stopped or killed `npm start` left running: each
 * goes on from its progress (`lambdas/domain/imports/import-runner.ts`), skipping the rows
 * already written. In AWS, Lambda's retries of a failed asynchronous run do this. Local only:
 * one Scan of the local table at start, which the deployed functions never do.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CompanyJob } from '../lambdas/shared/background-jobs.js';

/** Starts a run of every running import job with `startImport`; returns how many. */
export async function resumeImportJobs(
  startImport: (job: CompanyJob) => Promise<void> | void,
): Promise<number> {
  // Loaded now, after the environment names the embedded stack (the SDK clients read it at load).
  const { dynamoDb, tableName } = await import('../lambdas/shared/clients.js');
  let resumed = 0;
  let exclusiveStartKey: ScanCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamoDb.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :import AND #status = :running',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':import': 'import', ':running': 'running' },
        ProjectionExpression: 'companyId, id',
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    for (const job of page.Items ?? []) {
      await startImport({ companyId: job.companyId as string, jobId: job.id as string });
      resumed += 1;
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return resumed;
}
