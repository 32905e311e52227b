/**
 * The streamed upload (`lambdas/shared/s3-streamed-upload.ts`) against s3rver: what is stored
 * is exactly what was streamed, whatever the chunking, in one PutObject or in parts; a failed
 * or aborted upload leaves no object behind. Read back with the S3 SDK, the reference.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { AwsRequestError, observeAwsRequests } from '../../lambdas/shared/aws-requests';
import { filesBucketName } from '../../lambdas/shared/clients';
import { PART_SIZE, streamObject } from '../../lambdas/shared/s3-streamed-upload';
import { localS3 } from '../support/s3-client';

const target = () => ({
  bucket: filesBucketName(),
  key: `uploads/streamed-test/${randomBytes(6).toString('hex')}`,
});

async function stored(key: string): Promise<Buffer | undefined> {
  try {
    const response = await localS3().send(new GetObjectCommand({ Bucket: filesBucketName(), Key: key }));
    return Buffer.from(await response.Body!.transformToByteArray());
  } catch {
    return undefined;
  }
}

/** The bytes as a stream of uneven chunks (1 B to 1 MB), as a socket gives them. */
function unevenStream(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (
    let offset = 0, step = 1;
    offset < bytes.length;
    offset += step, step = (step * 7 + 13) % (1 << 20) || 1
  )
    chunks.push(bytes.subarray(offset, offset + step));
  return Readable.from(chunks);
}

/** The S3 operations sent while `act` runs. */
async function operationsOf(act: () => Promise<unknown>): Promise<string[]> {
  const operations: string[] = [];
  const stop = observeAwsRequests((request) => {
    operations.push(request.operation);
    return () => undefined;
  });
  try {
    await act();
  } finally {
    stop();
  }
  return operations;
}

describe('a streamed upload into S3', () => {
  it('stores 12 MB in three parts, byte for byte', async () => {
    // Prepare
    const object = target();
    const bytes = randomBytes(12 * 1024 * 1024 + 17);
    // Act
    const operations = await operationsOf(
      () => streamObject(object, unevenStream(bytes), 'application/octet-stream').done,
    );
    // Assess
    expect((await stored(object.key))?.equals(bytes)).toBe(true);
    expect(operations).toEqual([
      'CreateMultipartUpload',
      'UploadPart',
      'UploadPart',
      'UploadPart',
      'CompleteMultipartUpload',
    ]);
  });

  it('stores a body smaller than a part in one PutObject, with its content type', async () => {
    // Prepare
    const object = target();
    const bytes = randomBytes(PART_SIZE - 1);
    // Act
    const operations = await operationsOf(() => streamObject(object, unevenStream(bytes), 'text/csv').done);
    // Assess
    expect((await stored(object.key))?.equals(bytes)).toBe(true);
    const head = await localS3().send(new HeadObjectCommand({ Bucket: object.bucket, Key: object.key }));
    expect(head.ContentType).toBe('text/csv');
    expect(operations).toEqual(['PutObject']);
  });

  it('stores an empty body as an empty object', async () => {
    // Prepare
    const object = target();
    // Act
    await streamObject(object, Readable.from([]), 'text/csv').done;
    // Assess
    expect(await stored(object.key)).toEqual(Buffer.alloc(0));
  });

  it('aborted after two parts: the multipart upload is aborted and no object is stored', async () => {
    // Prepare
    const object = target();
    const body = new PassThrough();
    const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
    let upload: ReturnType<typeof streamObject> | undefined;
    // Act
    const operations = await operationsOf(async () => {
      upload = streamObject(object, body, 'application/octet-stream');
      body.write(randomBytes(PART_SIZE));
      await pause();
      body.write(randomBytes(PART_SIZE));
      await pause();
      body.write(randomBytes(1024));
      await pause();
      await upload.abort();
    });
    // Assess
    await expect(upload?.done).rejects.toThrow();
    expect(operations).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'AbortMultipartUpload']);
    expect(await stored(object.key)).toBeUndefined();
  });

  it("a refused request fails the upload with S3's error", async () => {
    // Prepare: a bucket that does not exist refuses every request.
    const object = { bucket: 'no-such-bucket-streamed-test', key: 'k' };
    // Act
    const upload = streamObject(object, unevenStream(randomBytes(PART_SIZE + 1)), 'application/octet-stream');
    // Assess
    await expect(upload.done).rejects.toBeInstanceOf(AwsRequestError);
    await expect(upload.done).rejects.toMatchObject({ status: 404, code: 'NoSuchBucket' });
  });

  it('a body that fails while it is read fails the upload and stores nothing', async () => {
    // Prepare
    const object = target();
    const body = new PassThrough();
    const upload = streamObject(object, body, 'application/octet-stream');
    body.write(randomBytes(PART_SIZE + 10));
    body.write(randomBytes(PART_SIZE + 10));
    // Act
    body.destroy(new Error('the client went away'));
    // Assess
    await expect(upload.done).rejects.toThrow('the client went away');
    expect(await stored(object.key)).toBeUndefined();
  });
});
