/**
 * S3's REST API on `aws-requests.ts`: where a bucket's objects are, how S3 signs, and how it
 * writes errors (XML). The object operations are in `s3-objects.ts`, the streamed upload in
 * `s3-streamed-upload.ts`, presigned addresses in `s3-presign.ts`. Requests are the S3 SDK's,
 * header for header and byte for byte (`test/unit/s3-requests.test.ts`). They go where the S3
 * client would send them (`aws-endpoints.ts`); in local mode, `AWS_ENDPOINT_URL_S3` points them
 * path-style at s3rver.
 */
import { createHash } from 'node:crypto';
import type { HttpRequest } from '@smithy/core/protocols';
import type { SignatureV4 } from '@smithy/signature-v4';
import { s3BucketEndpoint } from './aws-endpoints.js';
import {
  AwsRequestError,
  type AwsResponse,
  credentialsFor,
  type ErrorReader,
  sendAws,
  signedAwsRequest,
  signerFor,
} from './aws-requests.js';

/** The credentials S3 requests are signed with (s3rver's key for an s3rver on this machine). */
export const s3Credentials = credentialsFor('s3');

let signer: SignatureV4 | undefined;

/** The signer S3 expects: the path as sent, and the payload's hash in a header. */
export function s3Signer(): SignatureV4 {
  signer ??= signerFor('s3', { s3: true });
  return signer;
}

/** Percent-encoding as RFC 3986 (and SigV4) has it: `encodeURIComponent` and `!'()*`. */
export const uriEscape = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A key as S3 wants it in the path: each segment percent-encoded. */
const encodeKey = (key: string): string => key.split('/').map(uriEscape).join('/');

/**
 * Where a bucket's object lives (`aws-endpoints.ts`): virtual-hosted in AWS
 * (`<bucket>.s3.<region>.amazonaws.com/<key>`), path-style on a configured endpoint URL
 * (`http://127.0.0.1:4569/<bucket>/<key>`).
 */
export function objectLocation(
  bucket: string,
  key = '',
): { protocol: string; hostname: string; port?: number; path: string } {
  const { pathPrefix, bucketInPath, ...endpoint } = s3BucketEndpoint(bucket);
  // Path-style: the bucket after the endpoint URL's path, as S3's rules join them (one `/`).
  const bucketPath = bucketInPath ? `${pathPrefix.replace(/\/?$/, '/')}${uriEscape(bucket)}` : '';
  return { ...endpoint, path: `${bucketPath}/${encodeKey(key)}` };
}

export interface S3Request {
  /** The S3 operation's name, for traces and errors (`GetObject`). */
  operation: string;
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  bucket: string;
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Signed (its SHA-256 in `x-amz-content-sha256`, which S3 checks), so kept whole to retry. */
  body?: Buffer | string;
}

/** An object or version that does not exist (404 on any request). */
export const isMissingObject = (error: unknown): boolean =>
  error instanceof AwsRequestError && error.status === 404;

/** The text of the first `<tag>` in an XML document, its entities decoded. */
export function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return match?.[1]?.replace(
    /&(?:#x([0-9a-fA-F]+)|#(\d+)|(\w+));/g,
    (entity, hex?: string, decimal?: string, name?: string) =>
      hex
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : decimal
          ? String.fromCodePoint(Number(decimal))
          : (named[name ?? ''] ?? entity),
  );
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#x0D;',
  '\n': '&#x0A;',
  '\u0085': '&#x85;',
  '\u2028': '&#x2028;',
};

/** Text escaped for an XML element, as the SDK escapes it (line breaks too, or S3 would normalize them). */
export const xmlEscape = (text: string): string =>
  text.replace(/[&"'<>\r\n\u0085\u2028]/g, (c) => XML_ESCAPES[c] ?? c);

/** The error S3 wrote (XML; none for HEAD), or the status when it wrote none. */
const s3Error: ErrorReader = (status, _headers, xml) => ({
  code: xmlText(xml, 'Code') ?? (status === 404 ? 'NotFound' : `Http${status}`),
  message: xmlText(xml, 'Message') ?? 'no message',
});

const awsRequestOf = (request: S3Request) => ({
  ...objectLocation(request.bucket, request.key),
  service: 'S3',
  operation: request.operation,
  signer: s3Signer(),
  method: request.method,
  query: request.query,
  headers: request.headers,
  body: request.body,
  bucket: request.bucket,
});

/** Signs a request as S3 expects it (without sending it). */
export const signedS3Request = (request: S3Request): Promise<HttpRequest> =>
  signedAwsRequest(awsRequestOf(request));

/**
 * Sends one S3 request (`sendAws`: retried, traced, observed) and returns its response, or
 * throws an `AwsRequestError` with S3's error code. The caller reads or drops the response's `body`.
 *
 * @example
 * const response = await sendS3({ operation: 'HeadObject', method: 'HEAD', bucket, key });
 */
export const sendS3 = (request: S3Request): Promise<AwsResponse> =>
  sendAws(awsRequestOf(request), { readError: s3Error });

/**
 * Sends an S3 request whose 200 response can still be a failure (CopyObject,
 * CompleteMultipartUpload): an `<Error>` document, or a body cut off before its `<resultElement>`
 * (S3 ends such a response early when it fails). Either is retried as the SDK retries it (as a
 * 503), then thrown. The response's body is the whole document.
 */
export const sendS3Checked = (request: S3Request, resultElement: string): Promise<AwsResponse> =>
  sendAws(awsRequestOf(request), {
    readError: s3Error,
    errorInBody: (xml) =>
      /<Error>/.test(xml)
        ? s3Error(200, {}, xml)
        : xml.includes(`<${resultElement}`)
          ? undefined
          : { code: 'InternalError', message: `S3 responded 200 without a ${resultElement}` },
  });

/**
 * The body's MD5, base64, for `Content-MD5`. S3 checks it, and requires it (or an
 * `x-amz-checksum-*`) on DeleteObjects and on every write to a bucket with Object Lock, such as
 * the ledger log's: the signed SHA-256 does not count.
 */
export const contentMd5 = (body: Buffer | string): string => createHash('md5').update(body).digest('base64');

/** An XML document S3 reads (`<root xmlns="…S3's namespace">content</root>`), with its Content-MD5. */
export function xmlBody(root: string, content: string): { body: string; headers: Record<string, string> } {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${content}</${root}>`;
  return { body: xml, headers: { 'content-type': 'application/xml', 'content-md5': contentMd5(xml) } };
}
