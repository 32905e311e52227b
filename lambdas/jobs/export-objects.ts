/** Background run of an export too large for a response (`lambdas/domain/exports/export-service.ts`). */
import { runExport } from '#domain/exports/export-service.js';
import type { CompanyJob } from '#shared/background-jobs.js';

export const handler = async (job: CompanyJob): Promise<void> => {
  await runExport(job.companyId, job.jobId);
};
