/**
 * The values an import job takes, with no code behind them: the operation table, the schemas,
 * the repository and the OpenAPI document read them without loading a client or a parser.
 * The job's entity declares them (`#repositories/import-job-entity.js`).
 */
export {
  IMPORT_FORMATS,
  IMPORT_MODES,
  type ImportFormat,
  type ImportMode,
} from '#repositories/import-job-entity.js';

/** What became of a row. */
export type RowOutcome = 'created' | 'updated' | 'skipped' | 'failed';
