/**
 * The values an import job takes, with no code behind them: the operation table, the schemas,
 * the repository and the OpenAPI document read them without loading a client or a parser.
 */
export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_MODES = ['create', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** What became of a row. */
export type RowOutcome = 'created' | 'updated' | 'skipped' | 'failed';
