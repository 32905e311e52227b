/** The file record as the API shows it (spec 2.6). */
import type { FileRecord } from '#repositories/file-repository.js';

export interface FileView {
  id: string;
  fileName: string;
  originalFileName: string;
  mimeType: string;
  size: number;
  description: string;
  tags: string[];
  uploadedAt: string;
  uploadedBy: string;
  url: string;
  checksum: string;
}

/** The file's address under the company files path (the download operation). */
export const fileAddress = (companyId: string, fileId: string) =>
  `/v2/companies/${companyId}/files/${fileId}`;

/** `pathPrefix` is the stage prefix of the request (`/prod` in AWS, empty locally). */
export function toFileView(record: FileRecord, pathPrefix = ''): FileView {
  return {
    id: record.id,
    fileName: record.fileName,
    originalFileName: record.originalFileName,
    mimeType: record.mimeType,
    size: record.size,
    description: record.description,
    tags: record.tags,
    uploadedAt: record.uploadedAt,
    uploadedBy: record.uploadedBy,
    url: `${pathPrefix}${fileAddress(record.companyId, record.id)}`,
    checksum: record.checksum,
  };
}
