/**
 * Runs an import job: reads the file once to count its rows and find externalIds given twice,
 * then writes its rows in chunks. Each row is written through the objects' own domain code
 * (`createObject`, `changeObject`), so it gets its ledger event, and leaves one trace in the
 * same transaction (see `import-repository.ts`); a chunk is counted once, when the job's
 * progress moves past it. A run that is killed, or stops at its time budget, is taken over by
 * the next run, which skips the rows with a trace: no row is lost or written twice.
 */
import type { Readable } from 'node:stream';
import {
  advanceImportJob,
  findImportJob,
  type ImportErrorRecord,
  type ImportJobRecord,
  readRowTraces,
  rowDoneItem,
  rowErrorItems,
  updateImportJob,
} from '#repositories/import-repository.js';
import { findObjectByExternalId } from '#repositories/object-repository.js';
import { writeTransaction } from '#repositories/transactions.js';
import { nowIso } from '#shared/clock.js';
import { ApiError, type FieldIssue, ValidationError } from '#shared/errors.js';
import type { Principal } from '#shared/principal.js';
import { changeObject, fieldChanges } from '../objects/object-change.js';
import {
  CreatedTogetherRefusedError,
  createObject,
  createObjectsTogether,
  OBJECTS_PER_TRANSACTION,
  updatedFields,
} from '../objects/object-service.js';
import type { RowOutcome } from './import-job.js';
import type { ImportPace } from './import-pace.js';
import { ImportFileError, type ImportRecord, importRecords } from './import-records.js';
import { externalIdOf, isKnownColumn, type ObjectInput, toImportRow } from './import-row.js';
import { CREATE_MISSING_PERMISSIONS } from './import-schemas.js';
import { ImportTargets, type ResolvedTarget } from './import-targets.js';

/** Rows counted together: the unit of progress. */
export const IMPORT_CHUNK_ROWS = 100;
/** Rows of a chunk written at the same time. */
const ROWS_IN_FLIGHT = 16;

export interface ImportRunResult {
  /** False when the run stopped at its budget and the job goes on in another run. */
  finished: boolean;
}

interface RowResult {
  outcome: RowOutcome;
  errorCount: number;
}

/** A row read and placed, to be written. */
interface ReadyRow {
  record: ImportRecord;
  input: ObjectInput;
  target: ResolvedTarget;
}

/** The row was written by an earlier run of the job (its trace exists). */
class RowTakenError extends Error {}

const principalOf = (job: ImportJobRecord): Principal => ({
  type: job.principal.type,
  tenantId: job.companyId,
  keyId: job.principal.keyId,
  permissions: new Set(job.principal.permissions),
  ...(job.person ? { person: job.person } : {}),
});

/**
 * Whether the job may create missing categories: it asks for it and the key that created it held
 * what the import row's `createMissing` condition adds (checked at creation and start too; a job
 * recorded without it reports rows of unknown categories instead of creating them).
 */
const mayCreateMissing = (job: ImportJobRecord): boolean =>
  job.createMissing &&
  CREATE_MISSING_PERMISSIONS.every((permission) => job.principal.permissions.includes(permission));

interface FileSurvey {
  total: number;
  ignoredColumns: string[];
  /** The first row of each externalId given on later rows too, by the later rows' indexes. */
  firstRowOfRepeats: Map<number, number>;
}

/** First pass: how many rows, which columns go unread, which externalIds come twice. */
async function surveyFile(source: Readable, job: ImportJobRecord): Promise<FileSurvey> {
  const firstRow = new Map<string, number>();
  const firstRowOfRepeats = new Map<number, number>();
  const ignored = new Set<string>();
  let total = 0;
  for await (const record of importRecords(source, job.format)) {
    total += 1;
    if (!record.values) continue;
    for (const column of Object.keys(record.values)) if (!isKnownColumn(column)) ignored.add(column);
    // As the row's object would have it: two cells that differ only by a formula guard are one id.
    const externalId = externalIdOf(record.values, job.format);
    if (externalId === undefined) continue;
    const first = firstRow.get(externalId);
    if (first === undefined) firstRow.set(externalId, record.row);
    else firstRowOfRepeats.set(record.index, first);
  }
  return { total, ignoredColumns: [...ignored].sort(), firstRowOfRepeats };
}

class JobRun {
  private readonly principal: Principal;
  private readonly eventDescription: string;
  /** Since when the pace counts: the end of its last wait, so that reads between steps count too. */
  private pacedSince = Date.now();

  constructor(
    private readonly job: ImportJobRecord,
    private readonly targets: ImportTargets,
    private readonly survey: FileSurvey,
    private readonly pace: ImportPace | undefined,
  ) {
    this.principal = principalOf(job);
    this.eventDescription = `Import ${job.id}`;
  }

  /** Records a reported row: its error entries, all at once. */
  private async report(
    record: ImportRecord,
    issues: FieldIssue[],
    outcome: 'failed' | 'skipped',
  ): Promise<RowResult> {
    const errors: ImportErrorRecord[] = issues.map((issue) => ({ ...issue, row: record.row, outcome }));
    const items = rowErrorItems(this.job.companyId, this.job.id, record.index, errors);
    try {
      await writeTransaction(items, () => new RowTakenError());
    } catch (error) {
      if (!(error instanceof RowTakenError)) throw error;
    }
    return { outcome, errorCount: items.length };
  }

  private async traceOf(index: number): Promise<RowResult> {
    const trace = (await readRowTraces(this.job.companyId, this.job.id, index, index + 1)).get(index);
    if (!trace) throw new Error(`Import ${this.job.id}: row ${index} was claimed but has no trace`);
    return trace;
  }

  private claim(index: number, outcome: 'created' | 'updated') {
    return {
      item: rowDoneItem(this.job.companyId, this.job.id, index, outcome),
      onConditionFailed: () => new RowTakenError(),
    };
  }

  private async create(record: ImportRecord, input: ObjectInput, target: ResolvedTarget): Promise<RowResult> {
    await createObject(this.principal, target.categoryId, target.subcategoryId, input, {
      eventDescription: `${this.eventDescription}, row ${record.row}`,
      performedBy: this.job.performedBy,
      claim: this.claim(record.index, 'created'),
    });
    return { outcome: 'created', errorCount: 0 };
  }

  private async upsert(record: ImportRecord, input: ObjectInput, target: ResolvedTarget): Promise<RowResult> {
    const existing = await findObjectByExternalId(this.job.companyId, input.externalId);
    if (!existing) return this.create(record, input, target);
    if (existing.subcategoryId !== target.subcategoryId) {
      return this.report(
        record,
        [
          {
            field: 'subcategoryId',
            code: 'SUBCATEGORY_MISMATCH',
            message: `object ${existing.id} with externalId "${input.externalId}" is in subcategory ${existing.subcategoryId}; an import does not move objects`,
          },
        ],
        'failed',
      );
    }
    const update = {
      action: 'update' as const,
      name: input.name,
      description: input.description,
      summary: input.summary,
      owner: input.owner,
      metadata: input.metadata,
    };
    // Nothing to change: no event, so that running the same file again writes nothing.
    if (Object.keys(fieldChanges(existing, updatedFields(existing, update))).length === 0) {
      return { outcome: 'skipped', errorCount: 0 };
    }
    await changeObject(
      this.principal,
      existing.id,
      {
        action: 'update',
        eventDescription: `${this.eventDescription}, row ${record.row}`,
        performedBy: this.job.performedBy,
        apply: (before) => updatedFields(before, update),
        claim: this.claim(record.index, 'updated'),
      },
      existing,
    );
    return { outcome: 'updated', errorCount: 0 };
  }

  /**
   * Reads a row and finds its target: what to write, or the row reported (every path that
   * writes nothing leaves its error entries).
   */
  async prepare(record: ImportRecord): Promise<ReadyRow | RowResult> {
    if (record.issue || !record.values)
      return this.report(record, record.issue ? [record.issue] : [], 'failed');
    const row = toImportRow(record.values, this.job.format);
    if (!row.input) return this.report(record, row.issues, 'failed');
    const firstRow = this.survey.firstRowOfRepeats.get(record.index);
    if (firstRow !== undefined) {
      return this.report(
        record,
        [
          {
            field: 'externalId',
            code: 'DUPLICATE_EXTERNAL_ID',
            message: `externalId "${row.input.externalId}" is given on row ${firstRow} already`,
          },
        ],
        'failed',
      );
    }
    const resolution = await this.targets.resolve(row.target);
    if ('issues' in resolution) return this.report(record, resolution.issues, 'failed');
    return { record, input: row.input, target: resolution.target };
  }

  /** Writes one ready row on its own (upsert, or a create that could not go with others). */
  async write(ready: ReadyRow): Promise<RowResult> {
    const { record, input, target } = ready;
    try {
      return this.job.mode === 'upsert'
        ? await this.upsert(record, input, target)
        : await this.create(record, input, target);
    } catch (error) {
      if (error instanceof RowTakenError) return this.traceOf(record.index);
      if (error instanceof ValidationError) return this.report(record, error.issues, 'failed');
      if (error instanceof ApiError) {
        const field = error.code === 'EXTERNAL_ID_EXISTS' ? 'externalId' : 'subcategoryId';
        const issue = { field, code: error.code, message: error.message };
        return this.report(record, [issue], error.code === 'EXTERNAL_ID_EXISTS' ? 'skipped' : 'failed');
      }
      throw error;
    }
  }

  /**
   * Creates ready rows several to a transaction (create mode: one transaction a row would
   * serialize on the subcategory's and company's counters); a group that is refused as a whole
   * (an externalId that exists, a subcategory delisted meanwhile) is written row by row, which
   * reports exactly the rows at fault.
   */
  async createTogether(rows: ReadyRow[]): Promise<RowResult[]> {
    try {
      await createObjectsTogether(
        this.principal,
        rows.map(({ record, input, target }) => ({
          ...target,
          input,
          options: {
            eventDescription: `${this.eventDescription}, row ${record.row}`,
            performedBy: this.job.performedBy,
            claim: this.claim(record.index, 'created'),
          },
        })),
      );
      return rows.map(() => ({ outcome: 'created', errorCount: 0 }));
    } catch (error) {
      // DynamoDB refuses a transaction that names one item twice outright (ValidationException):
      // rows one by one then say which collide, instead of failing the chunk on every resume.
      const refused =
        error instanceof CreatedTogetherRefusedError ||
        (error as { name?: string }).name === 'ValidationException';
      if (!refused) throw error;
      return Promise.all(rows.map((row) => this.write(row)));
    }
  }

  /** Waits as long as the pace asks after `rows` rows written (objects, or a reported row's errors). */
  private async paced(rows: number): Promise<void> {
    if (!this.pace || rows === 0) return;
    await this.pace.afterWrites(rows, this.pacedSince);
    this.pacedSince = Date.now();
  }

  /** Writes or reports the rows of a chunk that have no trace yet, in order of their results. */
  async rows(records: ImportRecord[]): Promise<RowResult[]> {
    const prepared = await inBatches(
      records,
      ROWS_IN_FLIGHT,
      (record) => this.prepare(record),
      (results) => this.paced(results.filter((result) => !('record' in result)).length),
    );
    const ready = prepared.filter((entry): entry is ReadyRow => 'record' in entry);
    const written = new Map<ImportRecord, RowResult>();
    if (this.job.mode === 'create') {
      const groups: ReadyRow[][] = [];
      for (let start = 0; start < ready.length; start += OBJECTS_PER_TRANSACTION) {
        groups.push(ready.slice(start, start + OBJECTS_PER_TRANSACTION));
      }
      const results = await inBatches(
        groups,
        2,
        (group) => this.createTogether(group),
        (results) => this.paced(results.flat().length),
      );
      for (const [at, group] of groups.entries()) {
        for (const [position, row] of group.entries()) written.set(row.record, results[at]![position]!);
      }
    } else {
      const results = await inBatches(
        ready,
        ROWS_IN_FLIGHT,
        (row) => this.write(row),
        (results) => this.paced(results.length),
      );
      for (const [at, row] of ready.entries()) written.set(row.record, results[at]!);
    }
    return prepared.map((entry) => ('record' in entry ? written.get(entry.record)! : entry));
  }
}

/** `work` on `size` items at a time; `afterBatch` runs after each batch, with its results (the pace). */
async function inBatches<T, R>(
  items: T[],
  size: number,
  work: (item: T) => Promise<R>,
  afterBatch: (results: R[]) => Promise<void>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    const batch = await Promise.all(items.slice(start, start + size).map(work));
    results.push(...batch);
    await afterBatch(batch);
  }
  return results;
}

/**
 * Runs (or resumes) the job until it is done or `deadline` (epoch ms) passes; `openSource`
 * reads the job's file from its start. `pace`, when given, keeps the company's imports to their
 * rows a second (`import-pace.ts`): it waits after each step of rows written together (up to
 * 24 created, 16 changed, or 16 reported), not after a whole chunk, so that the table sees a
 * steady flow.
 */
export async function runImport(
  companyId: string,
  importId: string,
  openSource: (job: ImportJobRecord) => Promise<Readable>,
  deadline = Number.POSITIVE_INFINITY,
  pace?: ImportPace,
): Promise<ImportRunResult> {
  let job = await findImportJob(companyId, importId);
  if (job?.status !== 'running') return { finished: true };
  let survey: FileSurvey;
  try {
    survey = await surveyFile(await openSource(job), job);
  } catch (caught) {
    // The file outlived by the job (the staging prefix expires after a day): nothing to resume.
    const error =
      (caught as { name?: string }).name === 'NoSuchKey'
        ? new ImportFileError({
            code: 'FILE_MISSING',
            message: 'The import file is no longer stored; import it again',
          })
        : caught;
    if (!(error instanceof ImportFileError)) throw error;
    await updateImportJob(companyId, importId, {
      status: 'failed',
      error: { code: error.code, message: error.message },
      completedAt: nowIso(),
      updatedAt: nowIso(),
    });
    return { finished: true };
  }
  if (job.startedAt === null || job.counts.total !== survey.total) {
    const startedAt = job.startedAt ?? nowIso();
    await updateImportJob(companyId, importId, {
      total: survey.total,
      ignoredColumns: survey.ignoredColumns,
      startedAt,
      updatedAt: nowIso(),
    });
  }
  const run = new JobRun(
    job,
    await ImportTargets.load(principalOf(job), {
      createMissing: mayCreateMissing(job),
      defaults: {
        categoryId: job.defaultCategoryId ?? undefined,
        subcategoryId: job.defaultSubcategoryId ?? undefined,
      },
    }),
    survey,
    pace,
  );

  let chunk: ImportRecord[] = [];
  const writeChunk = async (): Promise<boolean> => {
    const from = chunk[0]!.index;
    const to = from + chunk.length;
    const traces = await readRowTraces(companyId, importId, from, to);
    const untraced = chunk.filter((record) => !traces.has(record.index));
    const written = await run.rows(untraced);
    const results = [...traces.values(), ...written];
    const counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
    let errorCount = 0;
    for (const result of results) {
      counts[result.outcome] += 1;
      errorCount += result.errorCount;
    }
    chunk = [];
    // False: another run counted these rows first; it carries the job on.
    const advanced = await advanceImportJob(companyId, importId, from, to, {
      counts,
      errorCount,
      updatedAt: nowIso(),
    });
    return advanced;
  };

  for await (const record of importRecords(await openSource(job), job.format)) {
    if (record.index < job.nextIndex) continue;
    chunk.push(record);
    if (chunk.length < IMPORT_CHUNK_ROWS) continue;
    if (!(await writeChunk())) return { finished: true };
    if (Date.now() > deadline) return { finished: false };
  }
  if (chunk.length > 0 && !(await writeChunk())) return { finished: true };
  job = await findImportJob(companyId, importId);
  if (job?.status === 'running') {
    // Refused when another run completed it first: nothing more to do.
    await updateImportJob(
      companyId,
      importId,
      { status: 'completed', completedAt: nowIso(), updatedAt: nowIso() },
      { status: 'running' },
    );
  }
  return { finished: true };
}
