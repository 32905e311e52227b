/**
 * `multipart/form-data` bodies for the subcategory update (spec 4.10), built byte by byte, and
 * the call of the update handler with one, as API Gateway makes it: the content type is a binary
 * media type, so the body arrives base64-encoded with `isBase64Encoded: true`.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { handler as updateSubcategoryHandler } from '../../lambdas/handlers/subcategories/update-subcategory';
import type { Principal } from '../../lambdas/shared/principal';
import { lambdaContext, proxyEvent } from './api-events';
import { type SubcategoryAddress, subcategoryDetailPath, UPDATE_RESOURCE } from './subcategory-requests';

/** A text field of the form. */
export interface FieldPart {
  name: string;
  value: string;
}

/** A file of the form. */
export interface FilePart {
  name: string;
  fileName: string;
  contentType: string;
  content: Buffer;
}

export type FormPart = FieldPart | FilePart;

export const newBoundary = (): string => `----subcategory-test-${randomBytes(8).toString('hex')}`;

/**
 * The bytes of a multipart body: each part opened by `--boundary`, the body closed by
 * `--boundary--`, lines ended by CRLF.
 *
 * @example
 * multipartBody([{ name: 'action', value: 'CHANGE' }], 'b') // '--b\r\nContent-Disposition: form-data; name="action"\r\n\r\nCHANGE\r\n--b--\r\n'
 */
export function multipartBody(parts: readonly FormPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const header =
      'content' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`;
    chunks.push(Buffer.from(header, 'utf8'));
    chunks.push('content' in part ? part.content : Buffer.from(part.value, 'utf8'));
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return Buffer.concat(chunks);
}

export interface RawMultipartOptions {
  /** The boundary named in the Content-Type header (defaults to the body's). */
  headerBoundary?: string;
  /** A Content-Type header to send as is (wins over `headerBoundary`). */
  contentType?: string;
  /** Send the body as UTF-8 text with `isBase64Encoded: false` (a non-binary API Gateway setup). */
  asText?: boolean;
}

/** What `invoke` of api-events returns: the status, the headers and the parsed JSON body. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape, as api-events' invoke
type HandlerResponse = { statusCode: number; headers: Record<string, unknown>; body: any };

/** The update's proxy event with a given multipart body. */
function multipartEvent(
  principal: Principal | undefined,
  address: SubcategoryAddress,
  body: Buffer,
  boundary: string,
  options: RawMultipartOptions = {},
): APIGatewayProxyEvent {
  const contentType =
    options.contentType ?? `multipart/form-data; boundary=${options.headerBoundary ?? boundary}`;
  const event = proxyEvent({
    method: 'PUT',
    path: subcategoryDetailPath(address),
    resource: UPDATE_RESOURCE,
    principal,
    pathParameters: {
      companyId: address.companyId,
      categoryId: address.categoryId,
      subcategoryId: address.subcategoryId,
    },
    rawBody: options.asText ? body.toString('utf8') : body.toString('base64'),
    headers: { 'Content-Type': contentType },
  });
  return { ...event, isBase64Encoded: !options.asText };
}

/** Calls the update handler with a multipart body (raw bytes, for malformed bodies). */
export async function putSubcategoryRaw(
  principal: Principal | undefined,
  address: SubcategoryAddress,
  body: Buffer,
  boundary: string,
  options: RawMultipartOptions = {},
): Promise<HandlerResponse> {
  const result = await updateSubcategoryHandler(
    multipartEvent(principal, address, body, boundary, options),
    lambdaContext,
  );
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

/** Calls the update handler with a well-formed multipart body of the given parts. */
export function putSubcategoryForm(
  principal: Principal | undefined,
  address: SubcategoryAddress,
  parts: readonly FormPart[],
): Promise<HandlerResponse> {
  const boundary = newBoundary();
  return putSubcategoryRaw(principal, address, multipartBody(parts, boundary), boundary);
}

/** The form parts of the usual text fields, leaving out those not given. */
export function fieldParts(fields: { name?: string; action?: string; description?: string }): FieldPart[] {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ({ name, value }));
}

/** A file part named `file`, the update's image field. */
export const imagePart = (fileName: string, contentType: string, content: Buffer): FilePart => ({
  name: 'file',
  fileName,
  contentType,
  content,
});
