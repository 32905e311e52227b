import { importOptionsOf } from '#domain/imports/import-schemas.js';
import { createImport, createImportUpload } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { readImportBody } from '#http/import-body.js';
import { BadRequestError } from '#shared/errors.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(
  importOperations.createImport,
  async ({ principal, query, form, event }) => {
    const options = importOptionsOf(query, form.fields);
    const pathPrefix = resourceLocation(event, '');
    let job: { id: string };
    if (form.file) {
      job = await createImport(principal, options, form.file, pathPrefix);
    } else if (options.size !== undefined) {
      job = await createImportUpload(principal, { ...options, size: options.size }, pathPrefix);
    } else {
      throw new BadRequestError(
        'FILE_REQUIRED',
        'Send the file as the multipart part "file", as a text/csv or JSON Lines body, or give "size" for a presigned upload',
      );
    }
    return { body: job, headers: { Location: `${pathPrefix}/v2/imports/${job.id}` } };
  },
  { readFormBody: readImportBody },
);
