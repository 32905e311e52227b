import { deleteFile } from '#domain/files/file-service.js';
import { httpHandler } from '#http/http-handler.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(fileOperations.deleteFile, async ({ principal, path }) => {
  await deleteFile(principal, path.fileId);
  return {};
});
