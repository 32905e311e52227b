/**
 * Work that must not hold up a request (removing a large subcategory's data). In AWS a job is
 * an asynchronous invocation of its own Lambda function (named by `<JOB>_FUNCTION_NAME`); in
 * local mode (`LOCAL_BACKGROUND_JOBS=inline`) it runs in this process after the answer is sent.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

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

const localJobs: {
  [name in BackgroundJobName]: () => Promise<(payload: BackgroundJobs[name]) => Promise<unknown>>;
} = {
  removeSubcategoryData: () => import('../jobs/remove-subcategory-data.js').then((module) => module.handler),
  importObjects: () => import('../jobs/import-objects.js').then((module) => module.handler),
  exportObjects: () => import('../jobs/export-objects.js').then((module) => module.handler),
};

let lambda: LambdaClient | undefined;
const running = new Set<Promise<unknown>>();

export async function startBackgroundJob<Name extends BackgroundJobName>(
  name: Name,
  payload: BackgroundJobs[Name],
): Promise<void> {
  if (process.env.LOCAL_BACKGROUND_JOBS === 'inline') {
    const run = localJobs[name]()
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
  lambda ??= new LambdaClient({});
  await lambda.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(payload)),
    }),
  );
}

/** Resolves when every local background job started so far has finished (tests, shutdown). */
export async function settleBackgroundJobs(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
