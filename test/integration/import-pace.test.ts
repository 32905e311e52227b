/**
 * The import runner keeps to its company's pace (`import-pace.ts`): after each step of rows
 * written together it hands the pace the rows and when it began them, so that the pace can wait;
 * rows an earlier run wrote are not counted again. The pace's arithmetic is `test/unit/import-pace.test.ts`.
 */
import { stringify } from 'csv-stringify/sync';
import type { ImportPace } from '../../lambdas/domain/imports/import-pace';
import { runImport } from '../../lambdas/domain/imports/import-runner';
import { openFileStream } from '../../lambdas/repositories/file-store';
import { findImportJob } from '../../lambdas/repositories/import-repository';
import { givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';
import { givenRunningImport } from '../support/running-import';

/** A pace that waits for nothing and records what each step of writes handed it. */
function recordingPace() {
  const steps: Array<{ rows: number; startedAt: number; at: number }> = [];
  const pace: ImportPace = {
    afterWrites: async (rows, startedAt) => {
      steps.push({ rows, startedAt, at: Date.now() });
    },
  };
  return { pace, steps };
}

const rowsOf = (steps: Array<{ rows: number }>) => steps.reduce((sum, step) => sum + step.rows, 0);

/** A company's running import of `rows` rows, every `invalidEvery`th without a name. */
async function givenPacedImport(
  rows: number,
  options: { mode?: 'create' | 'upsert'; invalidEvery?: number } = {},
) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const lines = [stringify([['externalId', 'name', 'subcategoryId']], { record_delimiter: '\r\n' })];
  for (let n = 1; n <= rows; n++) {
    const name = options.invalidEvery && n % options.invalidEvery === 0 ? '' : `Paced ${n}`;
    lines.push(stringify([[`P-${n}`, name, place.subcategoryId]], { record_delimiter: '\r\n' }));
  }
  const importId = await givenRunningImport(principal, lines.join(''), {
    fileName: 'pace.csv',
    mode: options.mode,
  });
  return { principal, importId };
}

describe('an import run and its pace', () => {
  it('hands the pace each step of rows written together, at most 24, and its start', async () => {
    // Prepare
    const { principal, importId } = await givenPacedImport(250);
    const { pace, steps } = recordingPace();
    const began = Date.now();

    // Act
    await runImport(principal.tenantId, importId, (job) => openFileStream(job.sourceKey), undefined, pace);

    // Assess: two transactions of 12 rows at a time; a chunk of 100 ends with a step of 4.
    expect(steps.map((step) => step.rows)).toEqual([24, 24, 24, 24, 4, 24, 24, 24, 24, 4, 24, 24, 2]);
    let previous = began;
    for (const step of steps) {
      expect(step.startedAt).toBeGreaterThanOrEqual(previous);
      expect(step.at).toBeGreaterThanOrEqual(step.startedAt);
      previous = step.at;
    }
    const job = await findImportJob(principal.tenantId, importId);
    expect(job).toMatchObject({ status: 'completed', counts: { total: 250, created: 250 } });
  });

  it('hands the pace the rows reported for errors too, and changed rows 16 at a time', async () => {
    // Prepare: 40 rows, every 4th refused (no name), written as upserts.
    const { principal, importId } = await givenPacedImport(40, { mode: 'upsert', invalidEvery: 4 });
    const { pace, steps } = recordingPace();

    // Act
    await runImport(principal.tenantId, importId, (job) => openFileStream(job.sourceKey), undefined, pace);

    // Assess: rows are read 16 at a time (4, 4 and 2 of them reported), then the 30 others written.
    expect(steps.map((step) => step.rows)).toEqual([4, 4, 2, 16, 14]);
    const job = await findImportJob(principal.tenantId, importId);
    expect(job).toMatchObject({ status: 'completed', counts: { total: 40, created: 30, failed: 10 } });
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
    expect(rowsOf(first.steps)).toBe(100);
    expect(rowsOf(resumed.steps)).toBe(50);
  });
});
