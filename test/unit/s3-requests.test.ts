/**
 * The service's own S3 requests (`lambdas/shared/s3-*.ts`) against the S3 SDK's, the reference:
 * for each operation, the request the SDK signs must be ours, header for header, byte for
 * byte, signature included; the presigned GET address and POST form must be the SDK
 * presigners' own (`test/support/signed-requests.ts`: same credentials, region and clock; no
 * network). And so in one region of every partition of the SDK's table, with FIPS, dual-stack
 * and configured endpoint URLs (`lambdas/shared/aws-endpoints.ts`).
 */
import { createHash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Request } from '../../lambdas/shared/s3-requests';
import {
  CREDENTIALS,
  type EndpointCase,
  endpointCases,
  ourRequest as firstRequest,
  freezeClockInEachTest,
  inEndpointCase,
  ourOutcome,
  REGION,
  sdkCapture,
  sdkPartitionRegions,
  settled,
  useLambdaRoleEnvironment,
  type WireRequest,
  wire,
} from '../support/signed-requests';

const BUCKET = 'asset-registry-files-a1b2c3';
/** A key with characters that need escaping, as a file's original name never reaches a key. */
const KEY = 'companies/3b0d6a52/files/9c8b7a65 (copy)+ü*';

const capture = sdkCapture();
const sdk = capture.watch(
  new S3Client({
    ...capture.options,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }),
);
const sdkRequest = (command: unknown) => capture.request(sdk, command);

let aws: typeof import('../../lambdas/shared/aws-requests.js');
let requests: typeof import('../../lambdas/shared/s3-requests.js');
let objects: typeof import('../../lambdas/shared/s3-objects.js');
let upload: typeof import('../../lambdas/shared/s3-streamed-upload.js');
let presign: typeof import('../../lambdas/shared/s3-presign.js');

const ourRequest = (act: () => Promise<unknown>) => firstRequest(aws, act);
/** Content-MD5, which every write sends: S3 requires it in a bucket with Object Lock (the ledger log's). */
const md5 = (body: Buffer | string) => createHash('md5').update(body).digest('base64');
const signed = async (request: S3Request): Promise<WireRequest> =>
  wire(await requests.signedS3Request(request));

beforeAll(async () => {
  useLambdaRoleEnvironment();
  aws = await import('../../lambdas/shared/aws-requests.js');
  requests = await import('../../lambdas/shared/s3-requests.js');
  objects = await import('../../lambdas/shared/s3-objects.js');
  upload = await import('../../lambdas/shared/s3-streamed-upload.js');
  presign = await import('../../lambdas/shared/s3-presign.js');
});
freezeClockInEachTest();

const object = { bucket: BUCKET, key: KEY };

describe('S3 requests are the SDK requests, signature included', () => {
  it('PutObject, with a content type and the Content-MD5 an Object Lock bucket requires', async () => {
    // Prepare
    const body = Buffer.from('tile bytes \u0000\u0001');
    // Act
    const sdkSigned = await sdkRequest(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: KEY,
        Body: body,
        ContentType: 'application/octet-stream',
        ContentMD5: md5(body),
      }),
    );
    const ourSigned = await ourRequest(() => objects.putObject(object, body, 'application/octet-stream'));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
    expect(ourSigned.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEROLEKEY01\/20261126\/eu-west-1\/s3\/aws4_request, SignedHeaders=.*x-amz-security-token/,
    );
  });

  it('PutObject only if absent (If-None-Match: *), with a string body', async () => {
    // Act
    const sdkSigned = await sdkRequest(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: KEY,
        Body: 'checkpoint\n',
        ContentType: 'text/plain',
        IfNoneMatch: '*',
        ContentMD5: md5('checkpoint\n'),
      }),
    );
    const ourSigned = await ourRequest(() =>
      objects.putObject(object, 'checkpoint\n', 'text/plain', { onlyIfAbsent: true }),
    );
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('GetObject of a version', async () => {
    // Act
    const sdkSigned = await sdkRequest(
      new GetObjectCommand({ Bucket: BUCKET, Key: KEY, VersionId: 'v1.a_b' }),
    );
    const ourSigned = await ourRequest(() => objects.getObjectStream({ ...object, versionId: 'v1.a_b' }));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('HeadObject', async () => {
    // Act
    const sdkSigned = await sdkRequest(new HeadObjectCommand({ Bucket: BUCKET, Key: KEY }));
    const ourSigned = await ourRequest(() => objects.headObject(object));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('CopyObject of a version, with a new content type', async () => {
    // Prepare: the copy source as file-store wrote it for the SDK.
    const source = `${BUCKET}/${KEY.split('/').map(encodeURIComponent).join('/')}?versionId=v1`;
    // Act
    const sdkSigned = await sdkRequest(
      new CopyObjectCommand({
        Bucket: BUCKET,
        Key: 'companies/3b0d6a52/files/new',
        CopySource: source,
        ContentType: 'image/png',
        MetadataDirective: 'REPLACE',
      }),
    );
    const ourSigned = await ourRequest(() =>
      objects.copyObject({ ...object, versionId: 'v1' }, 'companies/3b0d6a52/files/new', 'image/png'),
    );
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
  });

  it('DeleteObjects: the same XML; S3 requires a body checksum, which is Content-MD5 here (the SDK sends CRC32)', async () => {
    // Prepare
    const keys = [{ key: KEY, versionId: 'v1' }, { key: 'companies/3b0d6a52/files/<&>' }];
    // Act
    const sdkSigned = await sdkRequest(
      new DeleteObjectsCommand({
        Bucket: BUCKET,
        Delete: {
          Objects: [{ Key: KEY, VersionId: 'v1' }, { Key: 'companies/3b0d6a52/files/<&>' }],
          Quiet: true,
        },
      }),
    );
    const ourSigned = await ourRequest(() => objects.deleteObjects(BUCKET, keys));
    // Assess
    expect({ ...ourSigned, headers: undefined }).toEqual({ ...sdkSigned, headers: undefined });
    expect(ourSigned.headers['content-md5']).toBe(
      (await import('node:crypto')).createHash('md5').update(ourSigned.body).digest('base64'),
    );
    expect(sdkSigned.headers['x-amz-checksum-crc32']).toBeDefined();
  });

  it('DeleteObjects sends at most 1000 keys in a request (S3 refuses more)', async () => {
    // Prepare
    const keys = Array.from({ length: 1001 }, (_, index) => ({ key: `k/${index}` }));
    // Act: the first request is stopped before it leaves (the integration test sends them all).
    const first = await ourRequest(() => objects.deleteObjects(BUCKET, keys));
    // Assess
    expect(first.body.match(/<Object>/g)).toHaveLength(1000);
    expect(first.body).toContain('<Key>k/999</Key>');
    expect(first.body).not.toContain('<Key>k/1000</Key>');
  });

  it('a multipart upload: create, a part, complete and abort', async () => {
    // Prepare
    const part = Buffer.alloc(1024, 7);
    const uploadId = 'VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA';
    const etags = ['"a54357aff0632cce46d942af68356b38"', '"0c78aef83f66abc1fa1e8477f296d394"'];
    const multipart = upload.multipartRequests;
    // Act
    const pairs = [
      [
        await sdkRequest(
          new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: KEY, ContentType: 'text/csv' }),
        ),
        await signed(multipart.create(object, 'text/csv')),
      ],
      [
        await sdkRequest(
          new UploadPartCommand({
            Bucket: BUCKET,
            Key: KEY,
            UploadId: uploadId,
            PartNumber: 2,
            Body: part,
            ContentMD5: md5(part),
          }),
        ),
        await signed(multipart.uploadPart(object, uploadId, 2, part)),
      ],
      [
        await sdkRequest(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: KEY, UploadId: uploadId })),
        await signed(multipart.abort(object, uploadId)),
      ],
    ];
    const sdkComplete = await sdkRequest(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: KEY,
        UploadId: uploadId,
        MultipartUpload: { Parts: etags.map((ETag, index) => ({ ETag, PartNumber: index + 1 })) },
      }),
    );
    const ourComplete = await signed(multipart.complete(object, uploadId, etags));
    // Assess
    for (const [sdkSigned, ourSigned] of pairs) expect(ourSigned).toEqual(sdkSigned);
    // The SDK sends no checksum with CompleteMultipartUpload; S3 does not require one, and the
    // Content-MD5 sent here is checked by S3 like any other.
    expect({ ...ourComplete, headers: undefined }).toEqual({ ...sdkComplete, headers: undefined });
  });
});

describe("presigned addresses are the SDK presigners' own", () => {
  it('a GET address with response headers', async () => {
    // Prepare
    const response = {
      contentType: 'image/png',
      contentDisposition: `attachment; filename="photo (1).png"; filename*=UTF-8''photo%20%281%29.png`,
      cacheControl: 'private, max-age=300',
    };
    // Act
    const sdkUrl = await getSignedUrl(
      sdk,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: KEY,
        ResponseContentType: response.contentType,
        ResponseContentDisposition: response.contentDisposition,
        ResponseCacheControl: response.cacheControl,
      }),
      { expiresIn: 300 },
    );
    const ourUrl = await presign.presignedGetUrl(
      object,
      {
        'response-cache-control': response.cacheControl,
        'response-content-disposition': response.contentDisposition,
        'response-content-type': response.contentType,
      },
      300,
    );
    // Assess
    expect(ourUrl).toBe(sdkUrl);
  });

  it('a POST form bound to one key, size and type', async () => {
    // Prepare
    const conditions = [
      ['content-length-range', 1234, 1234],
      ['eq', '$Content-Type', 'image/png'],
    ];
    // Act
    const sdkForm = await createPresignedPost(sdk, {
      Bucket: BUCKET,
      Key: KEY,
      Conditions: conditions as never,
      Fields: { 'Content-Type': 'image/png' },
      Expires: 900,
    });
    const ourForm = await presign.presignedPost(object, conditions, { 'Content-Type': 'image/png' }, 900);
    // Assess
    expect(ourForm).toEqual(sdkForm);
    expect(Object.keys(ourForm.fields)).toEqual(Object.keys(sdkForm.fields));
  });

  it.each(sdkPartitionRegions().flatMap(({ regions }) => regions))(
    'addresses a bucket in %s where the SDK does',
    async (region) => {
      // Prepare
      const sdkInRegion = new S3Client({
        region,
        credentials: CREDENTIALS,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      process.env.AWS_REGION = region;
      try {
        // Act
        const sdkUrl = await getSignedUrl(sdkInRegion, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
        const ourUrl = await presign.presignedGetUrl(object, {}, 900);
        // Assess
        expect(ourUrl).toBe(sdkUrl);
      } finally {
        process.env.AWS_REGION = REGION;
      }
    },
  );
});

/** Whether the case configures an endpoint URL that the SDK does not ignore. */
const configuresEndpoint = ({ environment }: EndpointCase) =>
  Object.keys(environment).some((name) => name.startsWith('AWS_ENDPOINT_URL')) &&
  environment.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS !== 'true';

/** The cases the S3 client refuses: FIPS in China, and FIPS or dual-stack with an endpoint URL. */
const refusedByS3 = (endpointCase: EndpointCase) =>
  /^aws-cn .*FIPS| with (FIPS|dual-stack)/.test(endpointCase.name);

describe('S3 requests go where the S3 client sends them', () => {
  it.each(endpointCases('S3').map((endpointCase) => [endpointCase.name, endpointCase] as const))(
    '%s: an object request, a presigned GET and a presigned POST',
    (_name, endpointCase) =>
      inEndpointCase(endpointCase, async () => {
        // Prepare: a client created now reads the settings, as one created at a cold start does.
        // With an endpoint URL, the service goes path-style (what s3rver needs): so does the client.
        const captureInCase = sdkCapture(endpointCase.region);
        const client = captureInCase.watch(
          new S3Client({
            ...captureInCase.options,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
            forcePathStyle: configuresEndpoint(endpointCase),
          }),
        );
        const body = 'tile bytes';
        const conditions = [['content-length-range', 1, 1234]];
        // Act
        const sdkPut = await captureInCase.outcome(
          client,
          new PutObjectCommand({
            Bucket: BUCKET,
            Key: KEY,
            Body: body,
            ContentType: 'text/plain',
            ContentMD5: md5(body),
          }),
        );
        const ourPut = await ourOutcome(aws, () => objects.putObject(object, body, 'text/plain'));
        const get = new GetObjectCommand({ Bucket: BUCKET, Key: KEY, ResponseContentType: 'text/plain' });
        const sdkGet = await settled(() => getSignedUrl(client, get, { expiresIn: 300 }));
        const ourGet = await settled(() =>
          presign.presignedGetUrl(object, { 'response-content-type': 'text/plain' }, 300),
        );
        const sdkPost = await settled(() =>
          createPresignedPost(client, {
            Bucket: BUCKET,
            Key: KEY,
            Conditions: conditions as never,
            Expires: 900,
          }),
        );
        const ourPost = await settled(() => presign.presignedPost(object, conditions, {}, 900));
        // Assess
        expect(ourPut).toEqual(sdkPut);
        expect(ourGet).toEqual(sdkGet);
        expect(ourPost).toEqual(sdkPost);
        expect('error' in ourPut).toBe(refusedByS3(endpointCase));
      }),
  );

  it('a bucket whose name cannot be a host label goes path-style, as the S3 client sends it', async () => {
    // Prepare
    const dotted = { bucket: 'asset.registry.files', key: KEY };
    // Act
    const sdkSigned = await sdkRequest(new HeadObjectCommand({ Bucket: dotted.bucket, Key: KEY }));
    const ourSigned = await ourRequest(() => objects.headObject(dotted));
    // Assess
    expect(ourSigned).toEqual(sdkSigned);
    expect(ourSigned.hostname).toBe('s3.eu-west-1.amazonaws.com');
    expect(ourSigned.path.startsWith('/asset.registry.files/')).toBe(true);
  });
});
