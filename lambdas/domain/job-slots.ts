/**
 * The cap on a company's running background jobs (imports, exports; `docs/tenant-fairness.md`):
 * a job becomes `running` only in one transaction with the slot it takes
 * (`job-slot-repository.ts`); past {@link JOB_SLOTS_PER_KIND} of its kind the request gets
 * 409 `TOO_MANY_JOBS` with a `Retry-After`, and other companies are not affected.
 */
import { findExportJob } from '#repositories/export-repository.js';
import { findImportJob } from '#repositories/import-repository.js';
import {
  giveBackJobSlot,
  heldJobSlots,
  JOB_SLOTS_PER_KIND,
  type JobKind,
  takeJobSlotItem,
} from '#repositories/job-slot-repository.js';
import { type TransactionEntry, writeTransaction } from '#repositories/transactions.js';
import { ConflictError } from '#shared/errors.js';

export { JOB_SLOTS_PER_KIND, type JobKind };

/** Seconds a refused caller is told to wait: a short import or export takes about this long. */
export const JOB_RETRY_AFTER_SECONDS = 30;

/** 409 `TOO_MANY_JOBS` with a `Retry-After`: the company runs as many jobs of the kind as it may. */
class TooManyJobsError extends ConflictError {
  override readonly headers = { 'Retry-After': String(JOB_RETRY_AFTER_SECONDS) };
  constructor(kind: JobKind) {
    super(
      'TOO_MANY_JOBS',
      `This company already runs ${JOB_SLOTS_PER_KIND} ${kind}, the most it may run at once: retry when one ends`,
    );
  }
}

const statusOf: Record<JobKind, (companyId: string, jobId: string) => Promise<string | undefined>> = {
  imports: async (companyId, jobId) => (await findImportJob(companyId, jobId))?.status,
  exports: async (companyId, jobId) => (await findExportJob(companyId, jobId))?.status,
};

/**
 * Frees the slots of jobs that are no longer `running` though they still hold one (a job ended
 * by a write that did not give its slot back); true when it freed any. A job that is stuck
 * `running` keeps its slot until the sweeper of stuck jobs marks it failed, which gives it back.
 */
async function freeSlotsOfEndedJobs(companyId: string, kind: JobKind): Promise<boolean> {
  const held = await heldJobSlots(companyId, kind);
  const statuses = await Promise.all(held.map((jobId) => statusOf[kind](companyId, jobId)));
  const ended = held.filter((_, at) => statuses[at] !== 'running');
  for (const jobId of ended) await giveBackJobSlot(companyId, kind, jobId);
  return ended.length > 0;
}

/**
 * Writes the items that make the job `running` in one transaction with the slot it takes.
 * The job's own items come first, so their conditions' errors take precedence; refused with
 * {@link TooManyJobsError} past the cap.
 */
export async function startWithJobSlot(
  companyId: string,
  kind: JobKind,
  jobId: string,
  jobItems: readonly TransactionEntry[],
): Promise<void> {
  const full = () => new TooManyJobsError(kind);
  const write = () => writeTransaction([...jobItems, takeJobSlotItem(companyId, kind, jobId, full)]);
  try {
    await write();
  } catch (error) {
    if (!(error instanceof TooManyJobsError && (await freeSlotsOfEndedJobs(companyId, kind)))) throw error;
    await write();
  }
}
