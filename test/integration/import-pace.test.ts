/**
 * The import runner keeps to its company's pace (`import-pace.ts`): after each chunk it hands the
 * pace the rows it wrote and when it began them, so that the pace can wait; rows an earlier run
 * wrote are not counted again. The pace's arithmetic is `test/unit/import-pace.test.ts`.
 */
import { stringify } from 'csv-stringify/sync';
import type { ImportPace } from '../../lambdas/domain/imports/import-pace';
import { runImport } from '../../lambdas/domain/imports/import-runner';
import { openFileStream } from '../../lambdas/repositories/file-store';
import { findImportJob } from '../../lambdas/repositories/import-repository';
import { givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';
import { givenRunningImport } from '../support/running-import';

/** A pace that waits for nothing and records what each chunk handed it. */
function recordingPace() {
  const chunks: Array<{ rows: number; startedAt: number; at: number }> = [];
  const pace: ImportPace = {
    afterChunk: async (rows, startedAt) => {
      chunks.push({ rows, startedAt, at: Date.now() });
    },
  };
  return { pace, chunks };
}

/** A company's running import of `rows` valid rows. */
async function givenPacedImport(rows: number) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const lines = [stringify([['externalId', 'name', 'subcategoryId']], { record_delimiter: '\r\n' })];
  for (let n = 1; n <= rows; n++) {
    lines.push(stringify([[`P-${n}`, `Paced ${n}`, place.subcategoryId]], { record_delimiter: '\r\n' }));
  }
  const importId = await givenRunningImport(principal, lines.join(''), { fileName: 'pace.csv' });
  return { principal, importId };
}

describe('an import run and its pace', () => {
  it('hands the pace each chunk’s rows and its start, after the chunk is counted', async () => {
    // Prepare
    const { principal, importId } = await givenPacedImport(250);
    const { pace, chunks } = recordingPace();
    const began = Date.now();

    // Act
    await runImport(principal.tenantId, importId, (job) => openFileStream(job.sourceKey), undefined, pace);

    // Assess
    expect(chunks.map((chunk) => chunk.rows)).toEqual([100, 100, 50]);
    let previous = began;
    for (const chunk of chunks) {
      expect(chunk.startedAt).toBeGreaterThanOrEqual(previous);
      expect(chunk.at).toBeGreaterThanOrEqual(chunk.startedAt);
      previous = chunk.at;
    }
    const job = await findImportJob(principal.tenantId, importId);
    expect(job).toMatchObject({ status: 'completed', counts: { total: 250, created: 250 } });
  });

  it('counts only the rows a run writes, not those an earlier run wrote', async () => {
    // Prepare: a first run stopped after its first chunk (its deadline passed).
    const { principal, importId } = await givenPacedImport(150);
    const first = recordingPace();
    const stopped = await runImport(
      principal.tenantId,
      importId,
      (job) => openFileStream(job.sourceKey),
      Date.now() - 1,
      first.pace,
    );
    const resumed = recordingPace();

    // Act
    await runImport(
      principal.tenantId,
      importId,
      (job) => openFileStream(job.sourceKey),
      undefined,
      resumed.pace,
    );

    // Assess
    expect(stopped).toEqual({ finished: false });
    expect(first.chunks.map((chunk) => chunk.rows)).toEqual([100]);
    expect(resumed.chunks.map((chunk) => chunk.rows)).toEqual([50]);
  });
});
