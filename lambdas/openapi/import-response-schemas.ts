/**
 * Response schemas of the import and export operations (extension): their views'
 * (`lambdas/domain/imports/import-view.ts`, `lambdas/domain/exports/export-view.ts`, declared from
 * the entities), the creation response that adds the presigned upload, and their pages.
 */
import { exportJobView } from '#domain/exports/export-view.js';
import { importErrorView, importUploadSchema, importView } from '#domain/imports/import-view.js';
import type { JsonSchema } from '#shared/schema.js';
import { pageOf } from './schema-shapes.js';

export const importResponseSchemas = {
  Import: importView.jsonSchema,
  // The job, and its presigned upload when the file is to be sent separately (not required).
  ImportCreated: {
    ...importView.jsonSchema,
    description:
      'Extension: the new import job; with `upload` when the file is to be sent by presigned upload',
    properties: {
      ...(importView.jsonSchema.properties as Record<string, JsonSchema>),
      upload: importUploadSchema.jsonSchema,
    },
  },
  ImportPage: pageOf('Import', "Extension: a page of the company's imports, newest first"),
  ImportError: importErrorView.jsonSchema,
  ImportErrorPage: pageOf('ImportError', "Extension: a page of an import's error entries, in row order"),
  ExportJob: exportJobView.jsonSchema,
} satisfies Record<string, JsonSchema>;

export type ImportResponseSchemaName = keyof typeof importResponseSchemas;
