/**
 * The authorizations S3 makes of a REST request, as the Service Authorization Reference
 * ("Actions, resources, and condition keys for Amazon S3") and the S3 user guide's "Required
 * permissions for Amazon S3 API operations" give them:
 * - GET/HEAD object → `s3:GetObject` (`s3:GetObjectVersion` with a `versionId`);
 * - PUT object → `s3:PutObject`; a copy (`x-amz-copy-source`) also needs `s3:GetObject` (or
 *   `GetObjectVersion`) on the source; Object Lock headers also need `s3:PutObjectRetention`
 *   or `s3:PutObjectLegalHold`, an ACL header `s3:PutObjectAcl`, a tagging header
 *   `s3:PutObjectTagging`;
 * - a multipart upload's create, parts and complete → `s3:PutObject`; abort →
 *   `s3:AbortMultipartUpload`; listing its parts → `s3:ListMultipartUploadParts`;
 * - DELETE object → `s3:DeleteObject` (`s3:DeleteObjectVersion` with a `versionId`); `POST
 *   ?delete` → the same for each key it names;
 * - ListObjects(V2) → `s3:ListBucket` on the bucket, with `s3:prefix`, `s3:delimiter` and
 *   `s3:max-keys`;
 * - a browser-form POST → `s3:PutObject` on the form's key.
 * Requests are path-style (`/<bucket>/<key>`, how the SDK reaches an IP address) or
 * virtual-hosted (`<bucket>.s3.<region>.amazonaws.com`).
 */
import {
  type AuthorizationRequest,
  type AwsAccount,
  type AwsHttpRequest,
  hasQuery,
  headerOf,
  queryOf,
} from './authorization-request.js';

const bucketArnOf = (account: AwsAccount, bucket: string) =>
  `arn:${account.partition ?? 'aws'}:s3:::${bucket}`;

/** The bucket and key a request names, from its host (virtual-hosted style) or its path. */
export function s3Target(request: Pick<AwsHttpRequest, 'path' | 'headers'>): {
  bucket?: string;
  key?: string;
} {
  const host = (headerOf(request.headers, 'host') ?? '').replace(/:\d+$/, '');
  const virtualHosted = /^(.+?)\.s3[.-]/.exec(host)?.[1];
  const segments = request.path.replace(/^\//, '');
  if (virtualHosted) return { bucket: virtualHosted, key: segments ? decodeKey(segments) : undefined };
  const slash = segments.indexOf('/');
  if (!segments) return {};
  if (slash < 0) return { bucket: decodeKey(segments) };
  const key = segments.slice(slash + 1);
  return { bucket: decodeKey(segments.slice(0, slash)), key: key ? decodeKey(key) : undefined };
}

/** A key from the path: each segment percent-decoded (S3 keeps `+` as it is in a path). */
const decodeKey = (encoded: string): string => decodeURIComponent(encoded);

/**
 * Whether the translation reads the request's body: `POST ?delete` (the keys it deletes) and
 * a browser-form POST (its `key` field; the form's fields come before the file). Every other
 * S3 body goes through unread.
 */
export function s3RequestNeedsBody(
  request: Pick<AwsHttpRequest, 'method' | 'path' | 'query' | 'headers'>,
): boolean {
  if (request.method !== 'POST') return false;
  const { key } = s3Target(request);
  return (key === undefined && hasQuery(request.query, 'delete')) || isFormPost(request);
}

/** A browser-form POST: a multipart form to the bucket itself. */
const isFormPost = (request: Pick<AwsHttpRequest, 'method' | 'path' | 'query' | 'headers'>): boolean =>
  request.method === 'POST' &&
  s3Target(request).key === undefined &&
  (headerOf(request.headers, 'content-type') ?? '').startsWith('multipart/form-data');

/** The condition keys S3 sets from request headers, when the request carries them. */
const HEADER_CONDITION_KEYS: Record<string, string> = {
  'x-amz-acl': 's3:x-amz-acl',
  'x-amz-server-side-encryption': 's3:x-amz-server-side-encryption',
  'x-amz-server-side-encryption-aws-kms-key-id': 's3:x-amz-server-side-encryption-aws-kms-key-id',
  'x-amz-storage-class': 's3:x-amz-storage-class',
  'x-amz-metadata-directive': 's3:x-amz-metadata-directive',
  'x-amz-copy-source': 's3:x-amz-copy-source',
  'x-amz-content-sha256': 's3:x-amz-content-sha256',
  'x-amz-object-lock-mode': 's3:object-lock-mode',
  'x-amz-object-lock-retain-until-date': 's3:object-lock-retain-until-date',
  'x-amz-object-lock-legal-hold': 's3:object-lock-legal-hold',
};

function headerConditionKeys(request: AwsHttpRequest): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [header, key] of Object.entries(HEADER_CONDITION_KEYS)) {
    const value = headerOf(request.headers, header);
    if (value !== undefined) keys[key] = value;
  }
  return keys;
}

/** How the request is signed, as `s3:authType` and `s3:signatureversion` give it. */
function authKeys(request: AwsHttpRequest): Record<string, string> {
  const authType = isFormPost(request)
    ? 'POST'
    : queryOf(request.query, 'X-Amz-Credential')
      ? 'REST-QUERY-STRING'
      : 'REST-HEADER';
  return { 's3:authType': authType, 's3:signatureversion': 'AWS4-HMAC-SHA256' };
}

/** The extra permissions a write's headers call for. */
function writeHeaderActions(request: AwsHttpRequest): string[] {
  const has = (name: string) => headerOf(request.headers, name) !== undefined;
  const actions: string[] = [];
  if (has('x-amz-object-lock-mode') || has('x-amz-object-lock-retain-until-date'))
    actions.push('s3:PutObjectRetention');
  if (has('x-amz-object-lock-legal-hold')) actions.push('s3:PutObjectLegalHold');
  if (has('x-amz-acl') || Object.keys(request.headers).some((name) => name.startsWith('x-amz-grant-')))
    actions.push('s3:PutObjectAcl');
  if (has('x-amz-tagging')) actions.push('s3:PutObjectTagging');
  return actions;
}

/** The object a copy reads: `x-amz-copy-source` is `<bucket>/<key>[?versionId=…]`, URL-encoded. */
function copySourceAuthorization(account: AwsAccount, copySource: string): AuthorizationRequest {
  const [path = '', query = ''] = copySource.replace(/^\//, '').split('?');
  const decoded = decodeURIComponent(path);
  const versionId = new URLSearchParams(query).get('versionId');
  return {
    action: versionId ? 's3:GetObjectVersion' : 's3:GetObject',
    resource: `${bucketArnOf(account, '')}${decoded}`,
    context: {},
  };
}

/** The object operations of `?<subresource>` (`?tagging`, `?retention`, …) by method. */
const OBJECT_SUBRESOURCES: Record<string, Record<string, string>> = {
  tagging: { GET: 'GetObjectTagging', PUT: 'PutObjectTagging', DELETE: 'DeleteObjectTagging' },
  retention: { GET: 'GetObjectRetention', PUT: 'PutObjectRetention' },
  'legal-hold': { GET: 'GetObjectLegalHold', PUT: 'PutObjectLegalHold' },
  acl: { GET: 'GetObjectAcl', PUT: 'PutObjectAcl' },
  attributes: { GET: 'GetObjectAttributes' },
  restore: { POST: 'RestoreObject' },
};

/** The keys (and versions) a `POST ?delete` names. */
function deletedObjects(xml: string): Array<{ key: string; versionId?: string }> {
  const decode = (text: string) =>
    text.replace(/&(amp|lt|gt|quot|apos|#x?[0-9a-fA-F]+);/g, (_entity, name: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (named[name]) return named[name];
      return String.fromCodePoint(
        name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    });
  return [...xml.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map(([, object = '']) => {
    const key = /<Key>([\s\S]*?)<\/Key>/.exec(object)?.[1] ?? '';
    const versionId = /<VersionId>([\s\S]*?)<\/VersionId>/.exec(object)?.[1];
    return { key: decode(key), versionId: versionId === undefined ? undefined : decode(versionId) };
  });
}

const FILENAME_VARIABLE = ['$', '{filename}'].join('');

/**
 * A browser form's fields before its file (S3 takes the file as the last field): `key`
 * (with `${filename}` replaced by the file's name) and the rest.
 */
function formFields(request: AwsHttpRequest): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(headerOf(request.headers, 'content-type') ?? '');
  const delimiter = `--${boundary?.[1] ?? boundary?.[2] ?? ''}`;
  const fields: Record<string, string> = {};
  for (const part of request.body.toString('latin1').split(delimiter)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) continue;
    const disposition = part.slice(0, headerEnd);
    const name = /name="([^"]*)"/i.exec(disposition)?.[1];
    if (!name) continue;
    const filename = /filename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename !== undefined) {
      // S3 puts the file's name where the key says `${filename}`.
      fields.key = (fields.key ?? '').replace(FILENAME_VARIABLE, filename);
      break;
    }
    fields[name.toLowerCase()] = Buffer.from(
      part.slice(headerEnd + 4).replace(/\r\n$/, ''),
      'latin1',
    ).toString('utf8');
  }
  return fields;
}

/**
 * The authorizations of one S3 request.
 *
 * @example
 * s3Authorizations({ method: 'GET', path: '/files/a.txt', query: {}, headers: {}, body: Buffer.alloc(0) }, account);
 * // [{ action: 's3:GetObject', resource: 'arn:aws:s3:::files/a.txt', context: { 's3:authType': 'REST-HEADER', … } }]
 */
export function s3Authorizations(request: AwsHttpRequest, account: AwsAccount): AuthorizationRequest[] {
  const { bucket, key } = s3Target(request);
  const method = request.method.toUpperCase();
  const context = { ...authKeys(request), ...headerConditionKeys(request) };
  if (!bucket) return [{ action: 's3:ListAllMyBuckets', resource: '*', context }];
  const bucketArn = bucketArnOf(account, bucket);
  const on = (action: string, resource: string, extra: Record<string, string | string[]> = {}) => ({
    action: `s3:${action}`,
    resource,
    context: { ...context, ...extra },
  });
  if (key === undefined) return bucketAuthorizations(request, method, bucketArn, on);

  const objectArn = `${bucketArn}/${key}`;
  const versionId = queryOf(request.query, 'versionId');
  const versionKeys: Record<string, string> = versionId ? { 's3:versionid': versionId } : {};
  for (const [subresource, operations] of Object.entries(OBJECT_SUBRESOURCES)) {
    if (!hasQuery(request.query, subresource)) continue;
    const operation = operations[method];
    if (!operation) break;
    // The versioned form of a subresource operation is its own action (GetObjectVersionTagging).
    const action = versionId ? operation.replace(/^(Get|Put|Delete)Object/, '$1ObjectVersion') : operation;
    return [on(action, objectArn, versionKeys)];
  }
  const uploadId = queryOf(request.query, 'uploadId');
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (uploadId) return [on('ListMultipartUploadParts', objectArn)];
      return [on(versionId ? 'GetObjectVersion' : 'GetObject', objectArn, versionKeys)];
    case 'PUT': {
      const copySource = headerOf(request.headers, 'x-amz-copy-source');
      return [
        on('PutObject', objectArn),
        ...(uploadId ? [] : writeHeaderActions(request).map((action) => on(action.slice(3), objectArn))),
        ...(copySource ? [copySourceAuthorization(account, copySource)] : []),
      ];
    }
    case 'POST':
      // CreateMultipartUpload (`?uploads`) carries the object's headers; Complete (`?uploadId`) none.
      return [
        on('PutObject', objectArn),
        ...(hasQuery(request.query, 'uploads')
          ? writeHeaderActions(request).map((action) => on(action.slice(3), objectArn))
          : []),
      ];
    case 'DELETE': {
      if (uploadId) return [on('AbortMultipartUpload', objectArn)];
      const bypass = headerOf(request.headers, 'x-amz-bypass-governance-retention') === 'true';
      return [
        on(versionId ? 'DeleteObjectVersion' : 'DeleteObject', objectArn, versionKeys),
        ...(bypass ? [on('BypassGovernanceRetention', objectArn)] : []),
      ];
    }
    default:
      throw new Error(`S3: no operation serves ${method} on an object`);
  }
}

type On = (
  action: string,
  resource: string,
  extra?: Record<string, string | string[]>,
) => AuthorizationRequest;

/** Requests to the bucket itself: lists, `POST ?delete`, a browser form, bucket settings. */
function bucketAuthorizations(
  request: AwsHttpRequest,
  method: string,
  bucketArn: string,
  on: On,
): AuthorizationRequest[] {
  if (method === 'POST' && hasQuery(request.query, 'delete')) {
    return deletedObjects(request.body.toString('utf8')).map(({ key, versionId }) =>
      on(versionId ? 'DeleteObjectVersion' : 'DeleteObject', `${bucketArn}/${key}`),
    );
  }
  if (isFormPost(request)) {
    const fields = formFields(request);
    const headerKeys = Object.fromEntries(
      Object.entries(HEADER_CONDITION_KEYS)
        .filter(([header]) => fields[header] !== undefined)
        .map(([header, key]) => [key, fields[header] as string]),
    );
    return [on('PutObject', `${bucketArn}/${fields.key ?? ''}`, headerKeys)];
  }
  if (method === 'GET' || method === 'HEAD') {
    if (hasQuery(request.query, 'uploads')) return [on('ListBucketMultipartUploads', bucketArn)];
    if (hasQuery(request.query, 'versions')) return [on('ListBucketVersions', bucketArn, listKeys(request))];
    if (hasQuery(request.query, 'location')) return [on('GetBucketLocation', bucketArn)];
    if (hasQuery(request.query, 'policy')) return [on('GetBucketPolicy', bucketArn)];
    if (hasQuery(request.query, 'object-lock')) return [on('GetBucketObjectLockConfiguration', bucketArn)];
    if (hasQuery(request.query, 'versioning')) return [on('GetBucketVersioning', bucketArn)];
    // ListObjects, ListObjectsV2 and HeadBucket are all s3:ListBucket.
    return [on('ListBucket', bucketArn, listKeys(request))];
  }
  if (method === 'PUT' && Object.keys(request.query).every((name) => name === 'x-id'))
    return [on('CreateBucket', bucketArn)];
  if (method === 'DELETE' && Object.keys(request.query).every((name) => name === 'x-id'))
    return [on('DeleteBucket', bucketArn)];
  throw new Error(
    `S3: no operation known for ${method} on the bucket with ${Object.keys(request.query).join(', ')}`,
  );
}

/** A list's `s3:prefix`, `s3:delimiter` and `s3:max-keys`, when given. */
function listKeys(request: AwsHttpRequest): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of ['prefix', 'delimiter', 'max-keys']) {
    const value = queryOf(request.query, name);
    if (value !== undefined) keys[`s3:${name}`] = value;
  }
  return keys;
}
