/**
 * What S3 checks of a request that carries its own authentication, and s3rver does not: a
 * presigned address (SigV4 in the query: `X-Amz-Signature`, `X-Amz-Date`, `X-Amz-Expires`,
 * `X-Amz-Credential`, `X-Amz-SignedHeaders`) and a browser-form POST (a base64 policy document,
 * its signature, and its conditions). The local AWS endpoint runs these checks before IAM, so
 * that an address altered to another key fails locally as it fails in AWS, with S3's status and
 * error code.
 *
 * A query signature is recomputed with the SDK's own signer (`SignatureV4.presign`) from the
 * request as it came, and compared; a policy's signature with the SDK's signing key. Both need
 * the caller's secret: local keys' secrets are known (`function-credentials.ts`, s3rver's own).
 *
 * Not checked (S3 checks them): the time skew of a request dated in the future by less than 15
 * minutes, session tokens, `${filename}` in a policy's key condition, and the comma lists S3
 * takes in a `starts-with` on Content-Type.
 */
import { timingSafeEqual } from 'node:crypto';
import { HttpRequest } from '@smithy/core/protocols';
import { getSigningKey, SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '../../lambdas/shared/aws-requests.js';
import { type ServiceResponse, s3ErrorResponse } from './aws-refusals.js';
import { parseCredentialScope } from './request-credential.js';

/** The secret of an access key id, or undefined for a key the endpoint does not know. */
export type SecretOfAccessKey = (accessKeyId: string) => string | undefined;

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3's longest presigned lifetime: seven days. */
const MAX_EXPIRES_SECONDS = 604_800;
/** A request dated later than this ahead of the server's clock is not valid yet. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** The form fields that need no condition in the policy. */
const FIELDS_WITHOUT_CONDITION = new Set(['x-amz-signature', 'file', 'policy']);

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your key and signing method.';

/** S3's answer to a signature by an access key it does not know (query and POST policy alike). */
const unknownAccessKey = (requestId: string) =>
  s3ErrorResponse(
    403,
    'InvalidAccessKeyId',
    'The AWS Access Key Id you provided does not exist in our records.',
    requestId,
  );

/** `20261126T053000Z` → its Date, or undefined when it is not SigV4's basic format. */
function parseSigningTime(text: string): Date | undefined {
  const parts = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second] = parts;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(date.valueOf()) ? undefined : date;
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The query as sent, decoded (`+` is kept: SigV4 escapes a space as `%20`). */
function queryOf(rawQuery: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const name = decodeURIComponent(separator < 0 ? pair : pair.slice(0, separator));
    const value = separator < 0 ? '' : decodeURIComponent(pair.slice(separator + 1));
    const known = query[name];
    query[name] = known === undefined ? value : [known, value].flat();
  }
  return query;
}

export interface PresignedRequest {
  method: string;
  /** The path and query as sent (`/bucket/key?X-Amz-…`), not decoded. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Whether a request is authenticated by its query string (a presigned address). */
export const isPresignedQuery = (url: string): boolean => /[?&]X-Amz-(Signature|Credential)=/i.test(url);

/**
 * S3's refusal of a presigned address whose parameters, signature or lifetime do not hold;
 * undefined when it holds.
 *
 * @example
 * await presignedQueryRefusal({ method: 'GET', url: '/bucket/key?X-Amz-Algorithm=…', headers }, secretOf, new Date(), requestId);
 */
export async function presignedQueryRefusal(
  request: PresignedRequest,
  secretOf: SecretOfAccessKey,
  now: Date,
  requestId: string,
): Promise<ServiceResponse | undefined> {
  const queryStart = request.url.indexOf('?');
  const path = queryStart < 0 ? request.url : request.url.slice(0, queryStart);
  let query: Record<string, string | string[]>;
  try {
    query = queryOf(queryStart < 0 ? '' : request.url.slice(queryStart + 1));
  } catch {
    return s3ErrorResponse(400, 'InvalidArgument', 'The query string is not well formed.', requestId);
  }
  const single = (name: string) => {
    const value = query[name];
    return typeof value === 'string' ? value : undefined;
  };
  const parametersError = (message: string) =>
    s3ErrorResponse(400, 'AuthorizationQueryParametersError', message, requestId);
  const algorithm = single('X-Amz-Algorithm');
  const credential = single('X-Amz-Credential');
  const signingTime = single('X-Amz-Date');
  const expires = single('X-Amz-Expires');
  const signedHeaders = single('X-Amz-SignedHeaders');
  const signature = single('X-Amz-Signature');
  if (!algorithm || !credential || !signingTime || !expires || !signedHeaders || !signature)
    return parametersError(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  if (algorithm !== ALGORITHM) return parametersError(`X-Amz-Algorithm only supports "${ALGORITHM}"`);
  const scope = parseCredentialScope(credential);
  const signingDate = parseSigningTime(signingTime);
  if (!signingDate)
    return parametersError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  if (!scope || credential.split('/')[1] !== signingTime.slice(0, 8))
    return parametersError(
      `Error parsing the X-Amz-Credential parameter; the date or scope is wrong: ${credential}`,
    );
  if (!/^\d+$/.test(expires)) return parametersError('X-Amz-Expires should be a number');
  const expiresInSeconds = Number(expires);
  if (expiresInSeconds > MAX_EXPIRES_SECONDS)
    return parametersError('X-Amz-Expires must be less than a week (in seconds) that is 604800');
  const secretAccessKey = secretOf(scope.accessKeyId);
  if (secretAccessKey === undefined) return unknownAccessKey(requestId);

  // The request as its signer saw it: the signed headers, the query without the signature.
  const signedHeaderNames = signedHeaders.split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaderNames) {
    const value = request.headers[name];
    if (value === undefined)
      return s3ErrorResponse(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, requestId);
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // A presigned address signs no payload: S3 hashes it as UNSIGNED-PAYLOAD.
  const payloadHashSigned = signedHeaderNames.includes('x-amz-content-sha256');
  if (!payloadHashSigned) headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
  const { 'X-Amz-Signature': _signature, ...unsignedQuery } = query;
  const signer = new SignatureV4({
    service: scope.service,
    region: scope.region,
    credentials: { accessKeyId: scope.accessKeyId, secretAccessKey },
    sha256: Sha256,
    uriEscapePath: false,
  });
  const resigned = await signer.presign(
    new HttpRequest({ method: request.method, hostname: '', path, query: unsignedQuery, headers }),
    {
      signingDate,
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(signedHeaderNames),
      unsignableHeaders: payloadHashSigned ? undefined : new Set(['x-amz-content-sha256']),
      unhoistableHeaders: new Set(Object.keys(headers)),
    },
  );
  const expected = String(resigned.query?.['X-Amz-Signature'] ?? '');
  if (resigned.query?.['X-Amz-SignedHeaders'] !== signedHeaders || !sameText(expected, signature))
    return s3ErrorResponse(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, requestId);
  if (now.valueOf() > signingDate.valueOf() + expiresInSeconds * 1000)
    return s3ErrorResponse(403, 'AccessDenied', 'Request has expired', requestId);
  if (signingDate.valueOf() > now.valueOf() + MAX_CLOCK_SKEW_MS)
    return s3ErrorResponse(403, 'AccessDenied', 'Request is not valid yet', requestId);
  return undefined;
}

/** A browser form's parts: its fields (names in lower case) and the size of its file. */
export interface FormUpload {
  fields: Record<string, string>;
  /** The file's bytes; undefined when the form holds no file. */
  fileSize: number | undefined;
}

/**
 * The fields and file size of a whole multipart form body (S3 takes the file as the last field).
 *
 * @example
 * formUploadOf(body, 'multipart/form-data; boundary=----x'); // { fields: { key: '…', policy: '…' }, fileSize: 12 }
 */
export function formUploadOf(body: Buffer, contentType: string): FormUpload {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const delimiter = Buffer.from(`\r\n--${boundary?.[1] ?? boundary?.[2] ?? ''}`, 'latin1');
  // Each part starts after a delimiter; the body's first has no CRLF before it.
  const source = Buffer.concat([Buffer.from('\r\n'), body]);
  const fields: Record<string, string> = {};
  let start = source.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    const headerEnd = source.indexOf('\r\n\r\n', partStart, 'latin1');
    if (headerEnd < 0) break;
    const disposition = source.subarray(partStart, headerEnd).toString('utf8');
    const name = /name="([^"]*)"/i.exec(disposition)?.[1];
    if (/filename="/i.test(disposition)) {
      // The file runs to the last delimiter (its bytes may hold anything, the delimiter too).
      const end = source.lastIndexOf(delimiter);
      return { fields, fileSize: Math.max(0, end - (headerEnd + 4)) };
    }
    const next = source.indexOf(delimiter, headerEnd + 4);
    if (next < 0) break;
    if (name) fields[name.toLowerCase()] = source.subarray(headerEnd + 4, next).toString('utf8');
    start = next;
  }
  return { fields, fileSize: undefined };
}

/** The largest file a policy's `content-length-range` lets through, if it names one. */
export function policyMaxBytes(policyBase64: string | undefined): number | undefined {
  try {
    const policy = JSON.parse(Buffer.from(policyBase64 ?? '', 'base64').toString('utf8')) as {
      conditions?: unknown[];
    };
    for (const condition of policy.conditions ?? [])
      if (Array.isArray(condition) && condition[0] === 'content-length-range') return Number(condition[2]);
  } catch {
    // An unreadable policy is refused by the check itself.
  }
  return undefined;
}

type Condition = { kind: 'eq' | 'starts-with'; field: string; value: string; text: string };

/**
 * S3's refusal of a browser-form POST whose signature, policy or fields do not hold; undefined
 * when the upload may go on. `bucket` is the bucket the form is posted to.
 */
export async function presignedPostRefusal(
  form: FormUpload,
  bucket: string,
  secretOf: SecretOfAccessKey,
  now: Date,
  requestId: string,
): Promise<ServiceResponse | undefined> {
  const { fields, fileSize } = form;
  const policyError = (message: string) => s3ErrorResponse(400, 'InvalidPolicyDocument', message, requestId);
  const denied = (message: string) => s3ErrorResponse(403, 'AccessDenied', message, requestId);
  if (fields.key === undefined)
    return s3ErrorResponse(
      400,
      'InvalidArgument',
      "Bucket POST must contain a field named 'key'.",
      requestId,
    );
  if (fileSize === undefined)
    return s3ErrorResponse(
      400,
      'InvalidArgument',
      'POST requires exactly one file upload per request.',
      requestId,
    );
  const policyBase64 = fields.policy;
  const signature = fields['x-amz-signature'];
  const credential = fields['x-amz-credential'];
  const signingTime = fields['x-amz-date'];
  // A form without a policy is anonymous: S3 lets it write only to a bucket open to everyone.
  if (!policyBase64 || !signature || !credential || !signingTime)
    return denied('Access Denied: a POST to this bucket needs a policy and its signature');
  if (fields['x-amz-algorithm'] !== ALGORITHM)
    return s3ErrorResponse(400, 'InvalidArgument', `x-amz-algorithm only supports "${ALGORITHM}"`, requestId);
  const scope = parseCredentialScope(credential);
  if (!scope || !parseSigningTime(signingTime) || credential.split('/')[1] !== signingTime.slice(0, 8))
    return s3ErrorResponse(
      400,
      'InvalidArgument',
      `Invalid x-amz-credential or x-amz-date: ${credential}`,
      requestId,
    );
  const secretAccessKey = secretOf(scope.accessKeyId);
  if (secretAccessKey === undefined) return unknownAccessKey(requestId);
  const signingKey = await getSigningKey(
    Sha256,
    { accessKeyId: scope.accessKeyId, secretAccessKey },
    signingTime.slice(0, 8),
    scope.region,
    scope.service,
  );
  const hmac = new Sha256(signingKey);
  hmac.update(policyBase64);
  const expected = Buffer.from(await hmac.digest()).toString('hex');
  if (!sameText(expected, signature))
    return s3ErrorResponse(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, requestId);

  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(policyBase64, 'base64').toString('utf8'));
  } catch {
    return policyError('Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? new Date(policy.expiration) : undefined;
  if (!expiration || Number.isNaN(expiration.valueOf()))
    return policyError('Invalid Policy: Policy missing expiration.');
  if (now.valueOf() > expiration.valueOf()) return denied('Invalid according to Policy: Policy expired.');
  if (!Array.isArray(policy.conditions)) return policyError('Invalid Policy: Policy missing conditions.');

  // The bucket is a field of the form as far as the policy goes: the one posted to.
  const values: Record<string, string> = { ...fields, bucket };
  const conditioned = new Set<string>();
  const conditions: Condition[] = [];
  let lengthRange: [number, number] | undefined;
  for (const condition of policy.conditions as unknown[]) {
    const text = JSON.stringify(condition);
    if (Array.isArray(condition)) {
      const [operator, subject, value] = condition as unknown[];
      if (operator === 'content-length-range' && Number.isInteger(subject) && Number.isInteger(value)) {
        lengthRange = [subject as number, value as number];
        continue;
      }
      const kind = String(operator).toLowerCase();
      if (
        (kind === 'eq' || kind === 'starts-with') &&
        typeof subject === 'string' &&
        subject.startsWith('$')
      ) {
        conditions.push({ kind, field: subject.slice(1).toLowerCase(), value: String(value), text });
        continue;
      }
    } else if (condition && typeof condition === 'object' && Object.keys(condition).length === 1) {
      const [field, value] = Object.entries(condition)[0] as [string, unknown];
      conditions.push({ kind: 'eq', field: field.toLowerCase(), value: String(value), text });
      continue;
    }
    return policyError(`Invalid Policy: Invalid Condition: ${text}`);
  }
  for (const condition of conditions) {
    const actual = values[condition.field] ?? '';
    const holds = condition.kind === 'eq' ? actual === condition.value : actual.startsWith(condition.value);
    if (!holds) return denied(`Invalid according to Policy: Policy Condition failed: ${condition.text}`);
    conditioned.add(condition.field);
  }
  const extra = Object.keys(fields).filter(
    (name) => !FIELDS_WITHOUT_CONDITION.has(name) && !name.startsWith('x-ignore-') && !conditioned.has(name),
  );
  if (extra.length > 0) return denied(`Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
  if (lengthRange && fileSize > lengthRange[1])
    return s3ErrorResponse(
      400,
      'EntityTooLarge',
      'Your proposed upload exceeds the maximum allowed size',
      requestId,
    );
  if (lengthRange && fileSize < lengthRange[0])
    return s3ErrorResponse(
      400,
      'EntityTooSmall',
      'Your proposed upload is smaller than the minimum allowed size',
      requestId,
    );
  return undefined;
}
