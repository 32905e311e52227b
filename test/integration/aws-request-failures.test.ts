/**
 * AWS failure paths of the service's own requests (`lambdas/shared/aws-requests.ts`), which
 * s3rver never takes: an S3 stand-in on a local port returns what S3 returns when it fails
 * (throttling, a timeout, an error inside a 200, a 200 cut short, a refusal), and the requests
 * must be retried or refused as the SDK's standard mode does it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { endpointUrlEnvironment } from '../../lambdas/shared/aws-endpoints';
import { AwsRequestError } from '../../lambdas/shared/aws-requests';
import { copyObject, headObject, putObject } from '../../lambdas/shared/s3-objects';
import { PART_SIZE, streamObject } from '../../lambdas/shared/s3-streamed-upload';

interface Scripted {
  status: number;
  body?: string;
}

/** The stand-in's responses, in order (the last one repeats), and the requests it took. */
let script: Scripted[] = [];
let received: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];
let server: Server;
let s3rver: string | undefined;
const S3_ENDPOINT_URL = endpointUrlEnvironment('S3');

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    request.on('end', () => {
      const scripted = script.length > 1 ? (script.shift() as Scripted) : (script[0] as Scripted);
      response.writeHead(scripted.status, { 'x-amz-request-id': `req-${received.length}` });
      response.end(scripted.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s3rver = process.env[S3_ENDPOINT_URL];
  process.env[S3_ENDPOINT_URL] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env[S3_ENDPOINT_URL] = s3rver;
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
});

const s3Error = (code: string, message = 'from the stand-in') =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
const object = { bucket: 'bucket', key: 'companies/c/files/f' };

describe('retried as the SDK retries', () => {
  it('a throttled PutObject (503 SlowDown) is sent again, and succeeds', async () => {
    // Prepare
    script = [{ status: 503, body: s3Error('SlowDown') }, { status: 200 }];
    // Act
    await putObject(object, 'bytes', 'text/plain');
    // Assess
    expect(received.map((request) => request.method)).toEqual(['PUT', 'PUT']);
  });

  it('a PutObject that timed out in S3 (400 RequestTimeout) is sent again', async () => {
    // Prepare
    script = [{ status: 400, body: s3Error('RequestTimeout') }, { status: 200 }];
    // Act
    await putObject(object, 'bytes', 'text/plain');
    // Assess
    expect(received).toHaveLength(2);
  });

  it("a CopyObject that fails inside its 200 response is sent again, and the second response's result is kept", async () => {
    // Prepare
    script = [
      { status: 200, body: s3Error('InternalError', 'We encountered an internal error') },
      { status: 200, body: '<CopyObjectResult><ETag>"e"</ETag></CopyObjectResult>' },
    ];
    // Act
    await copyObject(object, 'companies/c/files/g', 'text/plain');
    // Assess
    expect(received).toHaveLength(2);
  });

  it('a CopyObject whose 200 response is cut short fails after 3 attempts, as InternalError', async () => {
    // Prepare
    script = [{ status: 200, body: '' }];
    // Act
    const copy = copyObject(object, 'companies/c/files/g', 'text/plain');
    // Assess
    await expect(copy).rejects.toMatchObject({ code: 'InternalError', attempts: 3 });
    expect(received).toHaveLength(3);
  });

  it('a CompleteMultipartUpload that fails inside its 200 response fails the upload, which is aborted', async () => {
    // Prepare: create, two parts, then every Complete responded with an error inside a 200.
    script = [
      {
        status: 200,
        body: '<InitiateMultipartUploadResult><UploadId>u-1</UploadId></InitiateMultipartUploadResult>',
      },
      { status: 200 },
      { status: 200 },
      { status: 200, body: s3Error('InternalError') },
      { status: 200, body: s3Error('InternalError') },
      { status: 200, body: s3Error('InternalError') },
      { status: 204 },
    ];
    // Act: a full part, then a last one.
    const upload = streamObject(
      object,
      Readable.from([Buffer.alloc(PART_SIZE), Buffer.alloc(10)]),
      'text/csv',
    );
    // Assess
    await expect(upload.done).rejects.toMatchObject({
      operation: 'CompleteMultipartUpload',
      code: 'InternalError',
    });
    expect(
      received.map((request) => `${request.method} ${request.url?.split('?')[1]?.split('&')[0]}`),
    ).toEqual([
      'POST uploads=',
      'PUT partNumber=1',
      'PUT partNumber=2',
      'POST uploadId=u-1',
      'POST uploadId=u-1',
      'POST uploadId=u-1',
      'DELETE uploadId=u-1',
    ]);
  });
});

describe('refused at once', () => {
  it('403 AccessDenied: one request, S3 code and message, nothing of the signature in the error', async () => {
    // Prepare
    script = [{ status: 403, body: s3Error('AccessDenied', 'Access Denied') }];
    // Act
    const put = putObject(object, 'bytes', 'text/plain');
    // Assess
    const error = await put.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AwsRequestError);
    expect(error).toMatchObject({ service: 'S3', operation: 'PutObject', status: 403, code: 'AccessDenied' });
    expect((error as Error).message).toBe('S3 PutObject: 403 AccessDenied: Access Denied');
    expect(received).toHaveLength(1);
  });

  it('HeadObject of a missing key: 404 is "no such object", in one request', async () => {
    // Prepare
    script = [{ status: 404 }];
    // Act
    const head = await headObject(object);
    // Assess
    expect(head).toBeUndefined();
    expect(received).toHaveLength(1);
  });
});

describe('a streamed upload that fails', () => {
  it('does not end the process when nobody awaits it yet', async () => {
    // Prepare
    script = [{ status: 403, body: s3Error('AccessDenied') }];
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    // Act
    const upload = streamObject(object, new PassThrough().end('bytes'), 'text/plain');
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.off('unhandledRejection', listener);
    // Assess
    expect(unhandled).toEqual([]);
    await expect(upload.done).rejects.toMatchObject({ code: 'AccessDenied' });
  });
});
