/**
 * What happens to a background job whose run Lambda gave up on (it failed on every retry, or
 * waited too long): an import or an export still `pending` or `running` is marked `failed`, so
 * that its caller sees the end instead of a job running for ever. A subcategory removal has no
 * status to mark: it is logged with its payload (the company and the subcategory), and the
 * alarm on given-up jobs tells the operator.
 */
import { findExportJob, finishExportJob } from '#repositories/export-repository.js';
import { findImportJob, updateImportJob } from '#repositories/import-repository.js';
import type { BackgroundJobName, BackgroundJobs } from '#shared/background-jobs.js';
import { nowIso } from '#shared/clock.js';

/** The import's error code when its run was given up on (GET /v2/imports/{id}, `error.code`). */
export const RUN_FAILED = 'RUN_FAILED';

const RUN_FAILED_MESSAGE = 'The job stopped: its run failed on every retry. Start it again.';

/** Marks the job the given-up run was for; what it did, for the log. */
export async function recordGivenUpRun<Name extends BackgroundJobName>(
  name: Name,
  payload: BackgroundJobs[Name],
): Promise<'marked failed' | 'already ended' | 'not found' | 'logged'> {
  if (name === 'importObjects') {
    const { companyId, jobId } = payload as BackgroundJobs['importObjects'];
    const job = await findImportJob(companyId, jobId);
    if (!job) return 'not found';
    if (job.status !== 'pending' && job.status !== 'running') return 'already ended';
    const marked = await updateImportJob(
      companyId,
      jobId,
      {
        status: 'failed',
        error: { code: RUN_FAILED, message: RUN_FAILED_MESSAGE },
        completedAt: nowIso(),
        updatedAt: nowIso(),
      },
      { status: job.status },
    );
    return marked ? 'marked failed' : 'already ended';
  }
  if (name === 'exportObjects') {
    const { companyId, jobId } = payload as BackgroundJobs['exportObjects'];
    const job = await findExportJob(companyId, jobId);
    if (!job) return 'not found';
    if (job.status !== 'running') return 'already ended';
    await finishExportJob(companyId, jobId, {
      status: 'failed',
      rowCount: null,
      size: null,
      error: RUN_FAILED_MESSAGE,
      completedAt: nowIso(),
    });
    return 'marked failed';
  }
  return 'logged';
}
