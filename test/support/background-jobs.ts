/**
 * Waits for the background jobs (subcategory removal, imports, exports) that a test's requests
 * started, wherever they run: in the test's own process (handlers called from their sources)
 * or as asynchronous invocations of the bundled functions (`bundled-function.ts`).
 */
import { settleBackgroundJobs as settleInProcessJobs } from '../../lambdas/shared/background-jobs';
import { bundledJobsSettled } from './bundled-function';

export async function settleBackgroundJobs(): Promise<void> {
  await settleInProcessJobs();
  await bundledJobsSettled();
}
