/** The file record as the API shows it (spec 2.6). */
import { type FileRecord, fileEntity } from '#repositories/file-entity.js';
import { computed, defineView, type ViewOf } from '#shared/entity.js';
import { string } from '#shared/schema.js';

export const fileView = defineView(fileEntity, {
  name: 'FileRecord',
  description: 'Spec 2.6',
  fields: {
    url: computed(string(), { description: 'path of the download operation (with the stage prefix in AWS)' }),
  },
});
export type FileView = ViewOf<typeof fileView>;

/** The file's address under the company files path (the download operation). */
const fileAddress = (companyId: string, fileId: string) => `/v2/companies/${companyId}/files/${fileId}`;

/** `pathPrefix` is the stage prefix of the request (`/prod` in AWS, empty locally). */
export const toFileView = (record: FileRecord, pathPrefix = ''): FileView =>
  fileView.toView(record, { url: `${pathPrefix}${fileAddress(record.companyId, record.id)}` });
