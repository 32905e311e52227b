/**
 * Presigned S3 addresses, as `@aws-sdk/s3-request-presigner` and `@aws-sdk/s3-presigned-post`
 * write them, on `s3-requests.ts`'s signer and credentials.
 */
import { HttpRequest } from '@smithy/core/protocols';
import { createScope, getSigningKey } from '@smithy/signature-v4';
import { awsRegion } from './aws-endpoints.js';
import { hostOf, Sha256 } from './aws-requests.js';
import { objectLocation, s3Credentials, s3Signer, uriEscape } from './s3-requests.js';

/** A time to the second, as the policy has it (`2026-11-26T05:30:00Z`). */
const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The signing time in SigV4's basic format (`20261126T053000Z`). */
const signingTime = (date: Date) => isoSeconds(date).replace(/[-:]/g, '');

/**
 * A GET address of one object, valid for `expiresInSeconds`; `response` sets the response's
 * headers (`response-content-type`, …), which S3 honours only on signed requests.
 */
export async function presignedGetUrl(
  object: { bucket: string; key: string },
  response: Record<string, string>,
  expiresInSeconds: number,
): Promise<string> {
  const location = objectLocation(object.bucket, object.key);
  const request = new HttpRequest({
    ...location,
    method: 'GET',
    query: { ...response, 'x-id': 'GetObject' },
    headers: { host: hostOf(location), 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
  });
  const signed = await s3Signer().presign(request, {
    expiresIn: expiresInSeconds,
    unsignableHeaders: new Set(['content-type']),
    unhoistableHeaders: new Set(),
  });
  const query = Object.entries(signed.query ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${uriEscape(name)}=${uriEscape(String(value))}`)
    .join('&');
  return `${location.protocol}//${hostOf(location)}${location.path}?${query}`;
}

/**
 * A browser-form POST that may store one object at `key`, under the given policy conditions
 * (`content-length-range`, `eq`, …), valid for `expiresInSeconds`. `fields` are sent as form
 * fields and bound by the policy.
 */
export async function presignedPost(
  target: { bucket: string; key: string },
  conditions: unknown[],
  fields: Record<string, string>,
  expiresInSeconds: number,
): Promise<{ url: string; fields: Record<string, string> }> {
  const now = new Date();
  const time = signingTime(now);
  const date = time.slice(0, 8);
  const region = awsRegion();
  const credentials = await s3Credentials();
  const signedFields: Record<string, string> = {
    ...fields,
    bucket: target.bucket,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${credentials.accessKeyId}/${createScope(date, region, 's3')}`,
    'X-Amz-Date': time,
    ...(credentials.sessionToken ? { 'X-Amz-Security-Token': credentials.sessionToken } : {}),
  };
  const policyConditions = [
    ...conditions,
    ...Object.entries(signedFields).map(([name, value]) => ({ [name]: value })),
    { key: target.key },
  ];
  const policy = Buffer.from(
    JSON.stringify({
      expiration: isoSeconds(new Date(now.valueOf() + expiresInSeconds * 1000)),
      conditions: policyConditions,
    }),
  ).toString('base64');
  const signingKey = await getSigningKey(Sha256, credentials, date, region, 's3');
  const hmac = new Sha256(signingKey);
  hmac.update(policy);
  const signature = Buffer.from(await hmac.digest()).toString('hex');
  const location = objectLocation(target.bucket);
  return {
    // The bucket's root: `https://<bucket>.s3.<region>.amazonaws.com/`, or path-style `…/<bucket>`.
    url: `${location.protocol}//${hostOf(location)}${location.path === '/' ? '/' : location.path.replace(/\/$/, '')}`,
    fields: { ...signedFields, key: target.key, Policy: policy, 'X-Amz-Signature': signature },
  };
}
