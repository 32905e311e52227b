/**
 * Work that must not hold up a request (removing a large subcategory's data, an import, an
 * export). In AWS a job is an asynchronous invocation of its own Lambda function (named by
 * `<JOB>_FUNCTION_NAME`); in local mode (`LOCAL_BACKGROUND_JOBS=inline`) it runs in this process
 * after the response is sent, by the runners that local mode registers (`local/in-process-jobs.ts`).
 * This module imports no job, so an operation's bundle holds none of their code; the Invoke is
 * a signed request of our own (`aws-json-requests.ts`), not the Lambda client (110 KB of bundle).
 */

import { jsonError, serviceEndpoint } from './aws-json-requests.js';
import { readAll, sendAws } from './aws-requests.js';

export interface RemoveSubcategoryDataJob {
  companyId: string;
  categoryId: string;
  subcategoryId: string;
}

/** An import or export job of a company (`lambdas/jobs/import-objects.ts`, `export-objects.ts`). */
export interface CompanyJob {
  companyId: string;
  /** The import's or export's id. */
  jobId: string;
}

export interface BackgroundJobs {
  removeSubcategoryData: RemoveSubcategoryDataJob;
  importObjects: CompanyJob;
  exportObjects: CompanyJob;
}
export type BackgroundJobName = keyof BackgroundJobs;

/** Environment variable with the function name of each job in AWS. */
export const JOB_FUNCTION_ENVIRONMENT: Record<BackgroundJobName, string> = {
  removeSubcategoryData: 'REMOVE_SUBCATEGORY_DATA_FUNCTION_NAME',
  importObjects: 'IMPORT_OBJECTS_FUNCTION_NAME',
  exportObjects: 'EXPORT_OBJECTS_FUNCTION_NAME',
};

/** Loads each job's handler, for running jobs in this process (local mode). */
export type InProcessJobs = {
  [name in BackgroundJobName]: () => Promise<(payload: BackgroundJobs[name]) => Promise<unknown>>;
};

let inProcessJobs: InProcessJobs | undefined;
const running = new Set<Promise<unknown>>();

/**
 * Makes `LOCAL_BACKGROUND_JOBS=inline` run jobs with these loaders (local mode and the tests
 * that call handlers in their own process).
 */
export function runJobsInProcess(jobs: InProcessJobs): void {
  inProcessJobs = jobs;
}

export async function startBackgroundJob<Name extends BackgroundJobName>(
  name: Name,
  payload: BackgroundJobs[Name],
): Promise<void> {
  if (process.env.LOCAL_BACKGROUND_JOBS === 'inline') {
    if (!inProcessJobs)
      throw new Error('LOCAL_BACKGROUND_JOBS=inline, but no runJobsInProcess() in this process');
    const run = inProcessJobs[name]()
      .then((handler) => handler(payload))
      .catch((error: unknown) => {
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: `Background job ${name} failed`,
            errorMessage: String(error),
          }),
        );
      })
      .finally(() => running.delete(run));
    running.add(run);
    return;
  }
  const functionName = process.env[JOB_FUNCTION_ENVIRONMENT[name]];
  if (!functionName) throw new Error(`${JOB_FUNCTION_ENVIRONMENT[name]} is not set`);
  // Lambda's Invoke, asynchronous (`Event`): Lambda queues the payload and responds 202 at once.
  const response = await sendAws(
    {
      ...serviceEndpoint('lambda'),
      service: 'Lambda',
      operation: 'Invoke',
      method: 'POST',
      path: `/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
      headers: { 'content-type': 'application/octet-stream', 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify(payload),
    },
    { readError: jsonError },
  );
  await readAll(response.body);
}

/** Resolves when every local background job started so far has finished (tests, shutdown). */
export async function settleBackgroundJobs(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
