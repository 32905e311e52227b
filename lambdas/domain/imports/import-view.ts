/** What the API answers of an import job. */
import type { ImportCounts, ImportJobRecord } from '#repositories/import-repository.js';

export interface ImportView {
  id: string;
  status: ImportJobRecord['status'];
  format: ImportJobRecord['format'];
  mode: ImportJobRecord['mode'];
  fileName: string | null;
  counts: ImportCounts;
  /** Rows done so far (every count but `total`, added up). */
  processed: number;
  errorCount: number;
  ignoredColumns: string[];
  error: ImportJobRecord['error'];
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** Where the error entries are (relative to the API base). */
  errorsPath: string;
}

export function toImportView(record: ImportJobRecord, pathPrefix = ''): ImportView {
  const { total: _total, ...done } = record.counts;
  return {
    id: record.id,
    status: record.status,
    format: record.format,
    mode: record.mode,
    fileName: record.fileName,
    counts: record.counts,
    processed: Object.values(done).reduce((sum, count) => sum + count, 0),
    errorCount: record.errorCount,
    ignoredColumns: record.ignoredColumns,
    error: record.error,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    startedAt: record.startedAt,
    completedAt: record.completedAt,
    errorsPath: `${pathPrefix}/v2/imports/${record.id}/errors`,
  };
}
