/**
 * Background run of an import job (`lambdas/domain/imports/import-runner.ts`). A run that nears
 * its time budget hands the rest to a fresh run of itself; a run that dies (a crash, a timeout,
 * Lambda's own retries of a failed asynchronous invocation) is resumed by the next one from
 * the job's progress, without losing or doubling a row.
 */
import { importPace, rowsPerSecondFromEnvironment } from '#domain/imports/import-pace.js';
import { runImport } from '#domain/imports/import-runner.js';
import { openFileStream } from '#repositories/file-store.js';
import { type CompanyJob, startBackgroundJob } from '#shared/background-jobs.js';

/** A run stops starting chunks after this long and hands over (the function allows 15 minutes). */
const RUN_BUDGET_MS = 10 * 60_000;

export const handler = async (job: CompanyJob): Promise<{ finished: boolean }> => {
  const result = await runImport(
    job.companyId,
    job.jobId,
    (record) => openFileStream(record.sourceKey),
    Date.now() + RUN_BUDGET_MS,
    importPace(job.companyId, rowsPerSecondFromEnvironment()),
  );
  if (!result.finished) await startBackgroundJob('importObjects', job);
  return result;
};
