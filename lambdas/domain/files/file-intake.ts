/**
 * Reads one file stream exactly once: counts and hashes it (SHA-256), checks its type from the
 * name, the declared type and the leading bytes, and optionally forwards it to storage. Nothing
 * but the first 64 KB (for the type check) is ever held in memory. On a refusal (415, 413) the
 * promise rejects at once and the rest of the stream is read and thrown away, never buffered.
 */
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { streamFileBytes } from '#repositories/file-store.js';
import { BadRequestError, fileTooLarge, UnsupportedMediaTypeError, ValidationError } from '#shared/errors.js';
import { checkFileType, type SupportedType } from '#shared/file-types.js';

/** Bytes read before the type is judged (text types are checked on up to this much). */
const HEAD_BYTES = 64 * 1024;

export interface FileIntake {
  size: number;
  sha256: string;
  type: SupportedType;
  /** The stored version (versioned buckets), when the bytes were stored here. */
  versionId?: string;
}

export interface IntakeOptions {
  fileName: string;
  declaredMimeType: string | undefined;
  maxBytes: number;
  /** Where to store the bytes; undefined to only inspect them (they are stored already). */
  storageKey?: string;
}

export function takeInFile(stream: Readable, options: IntakeOptions): Promise<FileIntake> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headSize = 0;
    let size = 0;
    let type: SupportedType | undefined;
    let sink: PassThrough | undefined;
    let storage: ReturnType<typeof streamFileBytes> | undefined;
    let failed = false;

    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      stream.resume(); // keep reading, and dropping, what is left
      sink?.destroy();
      // Respond once the partial upload is aborted, so no part outlives the refusal.
      Promise.resolve(storage?.abort())
        .catch(() => undefined)
        .finally(() => reject(error));
    };

    const judgeType = () => {
      const leading = Buffer.concat(head);
      const check = checkFileType(options.fileName, options.declaredMimeType, leading);
      if (!check.supported) {
        fail(
          new UnsupportedMediaTypeError(
            'UNSUPPORTED_FILE_TYPE',
            `The file type is not supported: ${check.reason}`,
          ),
        );
        return;
      }
      type = check.type;
      if (options.storageKey) {
        sink = new PassThrough();
        storage = streamFileBytes(options.storageKey, sink, type.mimeType);
        storage.done.catch(fail);
        sink.write(leading);
      }
    };

    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > options.maxBytes) {
        fail(fileTooLarge(options.maxBytes));
        return;
      }
      hash.update(chunk);
      if (!type) {
        head.push(chunk);
        headSize += chunk.length;
        if (headSize >= HEAD_BYTES) judgeType();
        return;
      }
      if (sink && !sink.write(chunk)) {
        stream.pause();
        sink.once('drain', () => stream.resume());
      }
    });
    // A body cut off inside the file part: a malformed request, not a server error.
    stream.on('error', (error) =>
      fail(
        new ValidationError([
          { field: 'body', code: 'FORMAT_INVALID', message: `The upload is malformed: ${error.message}` },
        ]),
      ),
    );
    stream.on('end', () => {
      if (failed) return;
      if ((stream as Readable & { truncated?: boolean }).truncated) {
        fail(fileTooLarge(options.maxBytes));
        return;
      }
      if (size === 0) {
        fail(new BadRequestError('FILE_REQUIRED', 'The file is empty'));
        return;
      }
      if (!type) judgeType();
      if (failed || !type) return;
      const intake = { size, sha256: hash.digest('hex'), type };
      if (!sink || !storage) {
        resolve(intake);
        return;
      }
      sink.end();
      storage.done.then((output) => resolve({ ...intake, versionId: output.versionId }), fail);
    });
  });
}
