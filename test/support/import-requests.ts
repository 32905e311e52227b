/** Calls of the import and export operations through their handlers, for tests. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ImportErrorView, ImportView } from '../../lambdas/domain/imports/import-view';
import { handler as getExportHandler } from '../../lambdas/handlers/exports/get-export';
import { handler as createImportHandler } from '../../lambdas/handlers/imports/create-import';
import { handler as getImportHandler } from '../../lambdas/handlers/imports/get-import';
import { handler as listImportErrorsHandler } from '../../lambdas/handlers/imports/list-import-errors';
import { handler as listImportsHandler } from '../../lambdas/handlers/imports/list-imports';
import { handler as startImportHandler } from '../../lambdas/handlers/imports/start-import';
import { handler as exportObjectsHandler } from '../../lambdas/handlers/objects/export-objects';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke, lambdaContext, proxyEvent } from './api-events';
import { settleBackgroundJobs } from './background-jobs';

/** Sends a file as the whole body (`text/csv` or JSON Lines). */
export async function postImportFile(
  principal: Principal | undefined,
  content: string | Buffer,
  contentType = 'text/csv',
  query: Record<string, string> = {},
) {
  const event = proxyEvent({
    method: 'POST',
    path: '/v2/imports',
    principal,
    query,
    headers: { 'Content-Type': contentType },
  });
  event.body = Buffer.from(content).toString('base64');
  event.isBase64Encoded = true;
  const result = await createImportHandler(event, lambdaContext);
  return { statusCode: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

export const postImportJson = (principal: Principal | undefined, body: unknown) =>
  invoke(createImportHandler, { method: 'POST', path: '/v2/imports', principal, body });

export const startImport = (principal: Principal | undefined, importId: string) =>
  invoke(startImportHandler, {
    method: 'POST',
    path: `/v2/imports/${importId}/start`,
    principal,
    pathParameters: { importId },
  });

export const getImport = (principal: Principal | undefined, importId: string) =>
  invoke(getImportHandler, {
    method: 'GET',
    path: `/v2/imports/${importId}`,
    principal,
    pathParameters: { importId },
  });

export const listImports = (principal: Principal | undefined, query?: Record<string, string>) =>
  invoke(listImportsHandler, { method: 'GET', path: '/v2/imports', principal, query });

const listImportErrors = (
  principal: Principal | undefined,
  importId: string,
  query?: Record<string, string>,
) =>
  invoke(listImportErrorsHandler, {
    method: 'GET',
    path: `/v2/imports/${importId}/errors`,
    principal,
    pathParameters: { importId },
    query,
  });

/** Every error entry of an import, page after page by cursor. */
export async function allImportErrors(principal: Principal, importId: string) {
  const entries: ImportErrorView[] = [];
  let cursor: string | null = null;
  do {
    const page = await listImportErrors(principal, importId, { limit: '100', ...(cursor ? { cursor } : {}) });
    if (page.statusCode !== 200) throw new Error(`errors: ${JSON.stringify(page.body)}`);
    entries.push(...page.body.data);
    cursor = page.body.pagination.nextCursor;
  } while (cursor);
  return entries;
}

/** A raw (non-JSON) response: its status, headers and bytes as text. */
async function rawResponse(result: APIGatewayProxyResult) {
  const text = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  return { statusCode: result.statusCode, headers: result.headers ?? {}, text };
}

export const importErrorsCsv = async (principal: Principal, importId: string) =>
  rawResponse(
    await listImportErrorsHandler(
      proxyEvent({
        method: 'GET',
        path: `/v2/imports/${importId}/errors`,
        principal,
        pathParameters: { importId },
        query: { format: 'csv' },
      }),
      lambdaContext,
    ),
  );

export const exportObjects = async (principal: Principal | undefined, query: Record<string, string> = {}) =>
  rawResponse(
    await exportObjectsHandler(
      proxyEvent({ method: 'GET', path: '/v2/objects/export', principal, query }),
      lambdaContext,
    ),
  );

export const getExport = (principal: Principal | undefined, exportId: string) =>
  invoke(getExportHandler, {
    method: 'GET',
    path: `/v2/exports/${exportId}`,
    principal,
    pathParameters: { exportId },
  });

/** Imports a file and waits for its job; returns the finished job. */
export async function importAndWait(
  principal: Principal,
  content: string | Buffer,
  contentType = 'text/csv',
  query: Record<string, string> = {},
) {
  const created = await postImportFile(principal, content, contentType, query);
  if (created.statusCode !== 202) throw new Error(`import: ${JSON.stringify(created.body)}`);
  await settleBackgroundJobs();
  const job = await getImport(principal, created.body.id);
  return job.body as ImportView;
}
