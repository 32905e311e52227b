/**
 * Local mode runs background jobs in the process that starts them
 * (`LOCAL_BACKGROUND_JOBS=inline`). The job modules are loaded on first use, after the
 * environment names the embedded stack (the SDK clients read it when they load). Registered
 * here, by local mode, so that no deployed function bundles the jobs' code.
 */
import { runJobsInProcess } from '../lambdas/shared/background-jobs.js';

/** Lets `startBackgroundJob` run every job in this process. */
export function runBackgroundJobsInProcess(): void {
  runJobsInProcess({
    removeSubcategoryData: () =>
      import('../lambdas/jobs/remove-subcategory-data.js').then((module) => module.handler),
    importObjects: () => import('../lambdas/jobs/import-objects.js').then((module) => module.handler),
    exportObjects: () => import('../lambdas/jobs/export-objects.js').then((module) => module.handler),
  });
}
