/**
 * Background removal of a subcategory's data after REMOVE: its objects and their files (100
 * objects per round, 25 items per BatchWriteItem), then its images and their records, then the
 * subcategory item, then the removal mark that hides all of it from reads. Ledger events are never touched: the
 * ledger is immutable and still verifies. A run that nears its time budget hands the rest to a
 * fresh run of itself, so no run is ever unbounded.
 */
import { deleteFileRecords, listAllObjectFiles } from '#repositories/file-repository.js';
import { deleteFileBytes } from '#repositories/file-store.js';
import { deleteObjectsData, listSubcategoryObjects } from '#repositories/object-repository.js';
import {
  deleteSubcategoryData,
  findSubcategory,
  listSubcategoryFiles,
} from '#repositories/subcategory-repository.js';
import { clearRemovingSubcategory } from '#repositories/tenant-counters.js';
import { type RemoveSubcategoryDataJob, startBackgroundJob } from '#shared/background-jobs.js';

/** Objects deleted per round. */
export const REMOVAL_BATCH_SIZE = 100;
/** A run stops starting new rounds after this long and hands over to a new run. */
const RUN_BUDGET_MS = 60_000;

export const handler = async (
  job: RemoveSubcategoryDataJob,
): Promise<{ objectsDeleted: number; finished: boolean }> => {
  const startedAt = Date.now();
  let objectsDeleted = 0;
  for (;;) {
    const { records: objects } = await listSubcategoryObjects(job.companyId, job.subcategoryId, {
      offset: 0,
      limit: REMOVAL_BATCH_SIZE,
    });
    if (objects.length === 0) break;
    const files = (
      await Promise.all(objects.map((object) => listAllObjectFiles(object.companyId, object.id)))
    ).flat();
    await deleteFileBytes(files.map((file) => ({ key: file.storageKey, versionId: file.storageVersionId })));
    await deleteFileRecords(files);
    await deleteObjectsData(objects);
    objectsDeleted += objects.length;
    if (Date.now() - startedAt > RUN_BUDGET_MS) {
      await startBackgroundJob('removeSubcategoryData', job);
      return { objectsDeleted, finished: false };
    }
  }
  const subcategory = await findSubcategory(job.companyId, job.categoryId, job.subcategoryId);
  if (subcategory) {
    const files = await listSubcategoryFiles(job.companyId, job.categoryId, job.subcategoryId);
    await deleteFileBytes(files.map((file) => file.storageKey));
    await deleteSubcategoryData(subcategory, files);
  }
  await clearRemovingSubcategory(job.companyId, job.subcategoryId);
  return { objectsDeleted, finished: true };
};
