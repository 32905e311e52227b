/**
 * `npm start` resumes the import jobs that a stopped or killed `npm start` left running: each
 * goes on from its progress (`lambdas/domain/imports/import-runner.ts`), skipping the rows
 * already written. In AWS, Lambda's retries of a failed asynchronous run do this. Local only:
 * one Scan of the local table at start, which the deployed functions never do.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';

/** Starts a run of every running import job; returns how many. */
export async function resumeImportJobs(): Promise<number> {
  // Loaded now, after the environment names the embedded stack (the SDK clients read it at load).
  const [{ dynamoDb, tableName }, { startBackgroundJob }] = await Promise.all([
    import('../lambdas/shared/clients.js'),
    import('../lambdas/shared/background-jobs.js'),
  ]);
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
      await startBackgroundJob('importObjects', {
        companyId: job.companyId as string,
        jobId: job.id as string,
      });
      resumed += 1;
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return resumed;
}
