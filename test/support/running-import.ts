/** An import job made `running` with its file stored, but with no run started: the test starts the runs. */
import { putFileBytes } from '../../lambdas/repositories/file-store';
import {
  findImportJob,
  type ImportJobRecord,
  updateImportJob,
} from '../../lambdas/repositories/import-repository';
import { nowIso } from '../../lambdas/shared/clock';
import type { Principal } from '../../lambdas/shared/principal';
import { postImportJson } from './import-requests';

/** Creates the job of `content` (a CSV file) and returns its id, `running`. */
export async function givenRunningImport(
  principal: Principal,
  content: string,
  options: { mode?: 'create' | 'upsert'; fileName: string },
): Promise<string> {
  const created = await postImportJson(principal, { size: Buffer.byteLength(content), ...options });
  if (created.statusCode !== 202) throw new Error(`import: ${JSON.stringify(created.body)}`);
  const job = (await findImportJob(principal.tenantId, created.body.id)) as ImportJobRecord;
  await putFileBytes(job.sourceKey, Buffer.from(content), 'text/csv');
  // What POST .../start does, without starting a background run in this process.
  await updateImportJob(
    principal.tenantId,
    job.id,
    { status: 'running', updatedAt: nowIso() },
    { status: 'pending' },
  );
  return job.id;
}
