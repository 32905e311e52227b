/**
 * Local mode checks a presigned S3 request as S3 does (`local/iam/s3-presigned-check.ts`): an
 * address or a browser form altered to another company's key, an expired one, or one without
 * its signature is refused with S3's status and error code, before s3rver (which checks none of
 * them) sees it. Addresses are made by the service itself (a download redirect, an upload
 * session) and by the SDK's own presigners with s3rver's key.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { filesBucketName } from '../../lambdas/shared/clients';
import { functionsS3Endpoint } from '../support/bundled-function';
import {
  createUploadSession,
  download,
  type FileRecordBody,
  fileKeyOf,
  readStoredObject,
  stagingKeyOf,
  uploadParts,
} from '../support/file-requests';
import { largePdf } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';
import { localS3 } from '../support/s3-client';

jest.setTimeout(60_000);

const FOUR_MIB = 4 * 1024 * 1024;

/** The SDK on the local AWS endpoint (where the service's presigned addresses point), as s3rver's key. */
const endpointS3 = () =>
  new S3Client({
    endpoint: functionsS3Endpoint(),
    region: process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

/** The S3 error of a response: status and `<Code>`. */
async function s3Response(response: Response): Promise<{ status: number; code: string | undefined }> {
  const text = await response.text();
  return { status: response.status, code: /<Code>([^<]*)<\/Code>/.exec(text)?.[1] };
}

/** The same address with another key in its path. */
function withKey(address: string, fromKey: string, toKey: string): string {
  const url = new URL(address);
  url.pathname = url.pathname.replace(fromKey, toKey);
  return url.toString();
}

async function storeBytes(key: string, content: string): Promise<void> {
  await localS3().send(new PutObjectCommand({ Bucket: filesBucketName(), Key: key, Body: content }));
}

async function storedText(key: string): Promise<string | undefined> {
  return (await readStoredObject(key))?.content.toString('utf8');
}

/** POSTs a form as a browser does: the fields, then `file`. */
async function postForm(url: string, fields: Record<string, string>, content: Buffer, type: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([content], { type }), 'upload.bin');
  return fetch(url, { method: 'POST', body: form });
}

describe('local S3: presigned GET and PUT are checked as S3 checks them', () => {
  const companyA = randomUUID();
  const companyB = randomUUID();
  const keyA = fileKeyOf(companyA, randomUUID());
  const keyB = fileKeyOf(companyB, randomUUID());
  const client = endpointS3();

  beforeAll(async () => {
    await storeBytes(keyA, 'file of company A');
    await storeBytes(keyB, 'file of company B');
  });
  afterAll(() => client.destroy());

  it('an unaltered presigned GET returns the bytes; altered to another company’s key: 403 SignatureDoesNotMatch', async () => {
    // Prepare
    const address = await getSignedUrl(
      client,
      new GetObjectCommand({ Bucket: filesBucketName(), Key: keyA }),
      {
        expiresIn: 60,
      },
    );
    // Act
    const unaltered = await fetch(address);
    const unalteredText = await unaltered.text();
    const altered = await s3Response(await fetch(withKey(address, keyA, keyB)));
    // Assess
    expect(unaltered.status).toBe(200);
    expect(unalteredText).toBe('file of company A');
    expect(altered).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('a presigned PUT altered to another company’s key: 403, and that company’s file is unchanged; unaltered: 200', async () => {
    // Prepare
    const address = await getSignedUrl(
      client,
      new PutObjectCommand({ Bucket: filesBucketName(), Key: keyA }),
      {
        expiresIn: 60,
      },
    );
    // Act
    const altered = await s3Response(
      await fetch(withKey(address, keyA, keyB), { method: 'PUT', body: 'overwritten' }),
    );
    const unaltered = await fetch(address, { method: 'PUT', body: 'new bytes of A' });
    await unaltered.arrayBuffer();
    // Assess
    expect(altered).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await storedText(keyB)).toBe('file of company B');
    expect(unaltered.status).toBe(200);
    expect(await storedText(keyA)).toBe('new bytes of A');
  });

  it('an expired presigned GET: 403 AccessDenied; over 7 days or no credential: 400; another secret: 403', async () => {
    // Prepare
    const command = new GetObjectCommand({ Bucket: filesBucketName(), Key: keyA });
    const expired = await getSignedUrl(client, command, {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3600_000),
    });
    const tooLong = new URL(await getSignedUrl(client, command, { expiresIn: 60 }));
    tooLong.searchParams.set('X-Amz-Expires', '604801');
    const withoutCredential = new URL(tooLong);
    withoutCredential.searchParams.delete('X-Amz-Credential');
    const otherSecret = new S3Client({
      endpoint: functionsS3Endpoint(),
      region: process.env.AWS_REGION ?? 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' },
    });
    const forged = await getSignedUrl(otherSecret, command, { expiresIn: 60 });
    otherSecret.destroy();
    // Act
    const expiredResponse = await s3Response(await fetch(expired));
    const tooLongResponse = await s3Response(await fetch(tooLong));
    const forgedResponse = await s3Response(await fetch(forged));
    const withoutCredentialResponse = await s3Response(await fetch(withoutCredential));
    // Assess
    expect(expiredResponse).toEqual({ status: 403, code: 'AccessDenied' });
    expect(tooLongResponse).toEqual({ status: 400, code: 'AuthorizationQueryParametersError' });
    expect(forgedResponse).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(withoutCredentialResponse).toEqual({ status: 400, code: 'AuthorizationQueryParametersError' });
  });

  it('the same address without its signature (anonymous): 403 AccessDenied', async () => {
    // Prepare
    const address = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: filesBucketName(), Key: keyB }), {
        expiresIn: 60,
      }),
    );
    for (const name of [...address.searchParams.keys()])
      if (name.startsWith('X-Amz-')) address.searchParams.delete(name);
    // Act
    const response = await s3Response(await fetch(address));
    // Assess
    expect(response).toEqual({ status: 403, code: 'AccessDenied' });
  });

  it('the service’s own download redirect, altered to another company’s key: 403; as given: the bytes', async () => {
    // Prepare
    const principal = companyPrincipal();
    const objectId = (await givenObject(principal, await givenSubcategoryPath(principal))).id;
    const content = largePdf(FOUR_MIB + 1);
    const uploaded = await uploadParts(principal, objectId, [
      { name: 'file', fileName: 'big.pdf', contentType: 'application/pdf', content },
    ]);
    const redirect = await download(principal, (uploaded.body as FileRecordBody).id);
    const location = String(redirect.headers.Location);
    const ownKey = fileKeyOf(principal.tenantId, (uploaded.body as FileRecordBody).id);
    // Act
    const altered = await s3Response(await fetch(withKey(location, ownKey, keyB)));
    const given = await fetch(location);
    const bytes = Buffer.from(await given.arrayBuffer());
    // Assess
    expect(redirect.statusCode).toBe(302);
    expect(altered).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(given.status).toBe(200);
    expect(bytes.equals(content)).toBe(true);
  });
});

describe('local S3: presigned POST (browser form) is checked as S3 checks it', () => {
  const principal = companyPrincipal();
  const companyB = randomUUID();
  const keyB = fileKeyOf(companyB, randomUUID());
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  let objectId = '';

  /** A fresh upload session of company A's object for the PNG: its address and fields. */
  async function session(): Promise<{ uploadId: string; url: string; fields: Record<string, string> }> {
    const response = await createUploadSession(principal, objectId, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    if (response.statusCode !== 201)
      throw new Error(`session: ${response.statusCode} ${JSON.stringify(response.body)}`);
    return response.body as { uploadId: string; url: string; fields: Record<string, string> };
  }

  beforeAll(async () => {
    objectId = (await givenObject(principal, await givenSubcategoryPath(principal))).id;
    await storeBytes(keyB, 'file of company B');
  });

  it('an unaltered form stores the bytes at its key', async () => {
    // Prepare
    const { uploadId, url, fields } = await session();
    // Act
    const response = await postForm(url, fields, png, 'image/png');
    await response.arrayBuffer();
    // Assess
    expect(response.status).toBeLessThan(300);
    expect((await readStoredObject(stagingKeyOf(principal.tenantId, uploadId)))?.content.equals(png)).toBe(
      true,
    );
  });

  it('its key changed to another company’s: 403 AccessDenied, and that company’s file is unchanged', async () => {
    // Prepare
    const { url, fields } = await session();
    // Act
    const response = await s3Response(await postForm(url, { ...fields, key: keyB }, png, 'image/png'));
    // Assess
    expect(response).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await storedText(keyB)).toBe('file of company B');
  });

  it('its policy altered to another company’s key: 403 SignatureDoesNotMatch; its signature removed: 403', async () => {
    // Prepare
    const { uploadId, url, fields } = await session();
    const policy = Buffer.from(fields.Policy ?? '', 'base64')
      .toString('utf8')
      .replace(stagingKeyOf(principal.tenantId, uploadId), keyB);
    const alteredPolicy = { ...fields, key: keyB, Policy: Buffer.from(policy).toString('base64') };
    const unsigned: Record<string, string> = { ...fields, key: keyB };
    delete unsigned['X-Amz-Signature'];
    delete unsigned.Policy;
    // Act
    const altered = await s3Response(await postForm(url, alteredPolicy, png, 'image/png'));
    const withoutSignature = await s3Response(await postForm(url, unsigned, png, 'image/png'));
    // Assess
    expect(altered).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(withoutSignature).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await storedText(keyB)).toBe('file of company B');
  });

  it('a file larger than the policy’s range: 400 EntityTooLarge; another Content-Type: 403', async () => {
    // Prepare
    const { uploadId, url, fields } = await session();
    // Act
    const tooLarge = await s3Response(await postForm(url, fields, Buffer.concat([png, png]), 'image/png'));
    const otherType = await s3Response(
      await postForm(url, { ...fields, 'Content-Type': 'text/html' }, png, 'text/html'),
    );
    // Assess
    expect(tooLarge).toEqual({ status: 400, code: 'EntityTooLarge' });
    expect(otherType).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await readStoredObject(stagingKeyOf(principal.tenantId, uploadId))).toBeUndefined();
  });

  it('an expired policy (the SDK’s presigned POST): 403 AccessDenied; a key outside starts-with: 403', async () => {
    // Prepare
    const client = endpointS3();
    const prefix = `uploads/${principal.tenantId}/`;
    const expired = await createPresignedPost(client, {
      Bucket: filesBucketName(),
      Key: `${prefix}expired`,
      Expires: -60,
    });
    const prefixed = await createPresignedPost(client, {
      Bucket: filesBucketName(),
      Key: `${prefix}\${filename}`,
      Conditions: [['starts-with', '$key', prefix]],
      Expires: 60,
    });
    client.destroy();
    // Act
    const expiredResponse = await s3Response(await postForm(expired.url, expired.fields, png, 'image/png'));
    const outside = await s3Response(
      await postForm(prefixed.url, { ...prefixed.fields, key: keyB }, png, 'image/png'),
    );
    const inside = await postForm(
      prefixed.url,
      { ...prefixed.fields, key: `${prefix}inside` },
      png,
      'image/png',
    );
    await inside.arrayBuffer();
    // Assess
    expect(expiredResponse).toEqual({ status: 403, code: 'AccessDenied' });
    expect(outside).toEqual({ status: 403, code: 'AccessDenied' });
    expect(inside.status).toBeLessThan(300);
    expect(await storedText(keyB)).toBe('file of company B');
  });
});
