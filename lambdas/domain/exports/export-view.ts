/** What the API returns of an export job. */
import { exportJobEntity } from '#repositories/export-job-entity.js';
import { computed, defineView, type ViewOf } from '#shared/entity.js';
import { dateTime, nullable, string } from '#shared/schema.js';

export const exportJobView = defineView(exportJobEntity, {
  name: 'ExportJob',
  description: 'Extension: an export too large for one response, written in the background',
  fields: {
    /** Valid until `urlExpiresAt`. */
    url: computed(nullable(string()), { description: 'presigned GET of the file, once completed' }),
    urlExpiresAt: computed(nullable(dateTime())),
  },
});
export type ExportView = ViewOf<typeof exportJobView>;
