/**
 * A stream of unknown length into one S3 object, as lib-storage's `Upload` does it: a body that
 * fits in one part is one PutObject; a longer one is a multipart upload of 5 MB parts, two in
 * flight while the next is read, so memory stays at about three parts whatever the size. A
 * failed or aborted upload is aborted in S3 too, so no part outlives it.
 */
import type { Readable } from 'node:stream';
import { readAll } from './aws-requests.js';
import { putObject, versionOf } from './s3-objects.js';
import {
  contentMd5,
  type S3Request,
  sendS3,
  sendS3Checked,
  xmlBody,
  xmlEscape,
  xmlText,
} from './s3-requests.js';

/** S3's smallest part (but the last). */
export const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** The body cut into parts of at least `PART_SIZE` bytes (the last may be shorter, or empty). */
async function* partsOf(body: Readable): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let size = 0;
  let parts = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    size += bytes.length;
    if (size >= PART_SIZE) {
      parts++;
      yield Buffer.concat(chunks, size);
      chunks = [];
      size = 0;
    }
  }
  if (size > 0 || parts === 0) yield Buffer.concat(chunks, size);
}

type Target = { bucket: string; key: string };

/** The multipart upload's requests (exported for the test that compares them with the SDK's). */
export const multipartRequests = {
  create: (target: Target, contentType: string): S3Request => ({
    ...target,
    operation: 'CreateMultipartUpload',
    method: 'POST',
    query: { uploads: '' },
    headers: { 'content-type': contentType },
  }),
  uploadPart: (target: Target, uploadId: string, partNumber: number, bytes: Buffer): S3Request => ({
    ...target,
    operation: 'UploadPart',
    method: 'PUT',
    query: { 'x-id': 'UploadPart', partNumber: String(partNumber), uploadId },
    headers: { 'content-type': 'application/octet-stream', 'content-md5': contentMd5(bytes) },
    body: bytes,
  }),
  complete: (target: Target, uploadId: string, etags: string[]): S3Request => ({
    ...target,
    operation: 'CompleteMultipartUpload',
    method: 'POST',
    query: { uploadId },
    ...xmlBody(
      'CompleteMultipartUpload',
      etags
        .map(
          (etag, index) =>
            `<Part><ETag>${xmlEscape(etag)}</ETag><PartNumber>${index + 1}</PartNumber></Part>`,
        )
        .join(''),
    ),
  }),
  abort: (target: Target, uploadId: string): S3Request => ({
    ...target,
    operation: 'AbortMultipartUpload',
    method: 'DELETE',
    query: { 'x-id': 'AbortMultipartUpload', uploadId },
  }),
};

export interface StreamedUpload {
  /** Settles when the object is stored (with its version, in a versioned bucket) or the upload failed. */
  done: Promise<{ versionId?: string }>;
  /**
   * Stops reading, aborts the multipart upload in S3, and settles once it has (never rejects).
   * An upload whose last request (its PutObject, or CompleteMultipartUpload) is already under
   * way may still complete.
   */
  abort(): Promise<void>;
}

/**
 * Starts streaming `body` into `target`.
 *
 * @example
 * const upload = streamObject({ bucket, key }, body, 'text/csv');
 * await upload.done;
 */
export function streamObject(target: Target, body: Readable, contentType: string): StreamedUpload {
  let aborted = false;
  const abortedError = () => new Error('The upload was aborted');

  const multipart = async (parts: AsyncIterator<Buffer>, first: Buffer, second: Buffer) => {
    const created = await sendS3(multipartRequests.create(target, contentType));
    const uploadId = xmlText((await readAll(created.body)).toString('utf8'), 'UploadId') ?? '';
    const etags: string[] = [];
    let partCount = 0;
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    const send = (bytes: Buffer) => {
      const partNumber = ++partCount;
      const sending: Promise<void> = sendS3(multipartRequests.uploadPart(target, uploadId, partNumber, bytes))
        .then((response) => {
          response.body.resume();
          etags[partNumber - 1] = response.headers.etag ?? '';
        })
        // Kept, and thrown by the loop below: a rejection nobody awaits yet would end the process.
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    };
    try {
      send(first);
      send(second);
      for (;;) {
        while (inFlight.size >= PARTS_IN_FLIGHT && !failure) await Promise.race(inFlight);
        if (failure) throw failure;
        const next = await parts.next();
        if (next.done) break;
        send(next.value);
      }
      await Promise.all(inFlight);
      if (failure) throw failure;
      if (aborted) throw abortedError();
      const completed = await sendS3Checked(
        multipartRequests.complete(target, uploadId, etags),
        'CompleteMultipartUploadResult',
      );
      completed.body.resume();
      return { versionId: versionOf(completed.headers) };
    } catch (error) {
      await Promise.allSettled(inFlight);
      await sendS3(multipartRequests.abort(target, uploadId)).then(
        (response) => response.body.resume(),
        () => undefined, // what S3 could not abort, the bucket's lifecycle rule removes
      );
      throw error;
    }
  };

  const run = async (): Promise<{ versionId?: string }> => {
    const parts = partsOf(body);
    try {
      const first = await parts.next();
      const second = await parts.next();
      if (aborted) throw abortedError();
      if (second.done)
        return await putObject(target, first.done ? Buffer.alloc(0) : first.value, contentType);
      return await multipart(parts, first.value as Buffer, second.value);
    } finally {
      // Stops reading the body when the upload ended early.
      await parts.return(undefined);
    }
  };

  const done = run();
  // A failure nobody awaits yet must not end the process; whoever awaits `done` still gets it.
  done.catch(() => undefined);
  return {
    done,
    abort: async () => {
      aborted = true;
      body.destroy();
      await done.catch(() => undefined);
    },
  };
}
