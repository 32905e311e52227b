import { deleteFile } from '#domain/files/file-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.deleteFile, async ({ principal, path }) => {
  await deleteFile(principal, path.fileId);
  return {};
});
