/**
 * s3rver, an S3-compatible server on loopback, for the files bucket in local mode.
 *
 * Its file store (s3rver 3.7.1, `lib/stores/filesystem.js`) removes a key's folder when the
 * folder's last object is deleted, and opens an object's file with no error listener: an upload
 * into a folder whose last object was being deleted at that moment failed to open its file
 * (ENOENT), and the unhandled stream error ended the whole process (`npm start`, or the test
 * run). The store of each server is given two replacements here: a delete that removes the
 * object's files and leaves the folders (an empty folder holds no key, so listings are the
 * same), and a put that waits for its file to be written and turns a write error into a
 * failed request (500) instead of an unhandled error.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

export interface S3LocalOptions {
  port: number;
  directory: string;
  bucketNames: string[];
}

/** The parts of s3rver's `FilesystemStore` replaced or used here. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
}

interface StoredObject {
  bucket: string;
  key: string;
  metadata: unknown;
  content: Buffer | NodeJS.ReadableStream;
}

/** Deletes an object's files (data, checksum, metadata) and no folder. */
async function deleteObjectFiles(store: FilesystemStore, bucket: string, key: string): Promise<void> {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((resource) =>
      unlink(store.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    ),
  );
}

/** s3rver's `putObject`, with every stream error a rejection of the request. */
async function putObjectFile(
  store: FilesystemStore,
  object: StoredObject,
): Promise<{ size: number; md5: string }> {
  const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
  await mkdir(dirname(objectPath), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  const content = Buffer.isBuffer(object.content) ? [object.content] : object.content;
  await pipeline(content, counted, createWriteStream(objectPath));
  const digest = md5.digest('hex');
  await store.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
}

export async function startS3Local(options: S3LocalOptions): Promise<{ close: () => Promise<void> }> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    silent: true,
    directory: options.directory,
    configureBuckets: options.bucketNames.map((name) => ({ name, configs: [] })),
  });
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.deleteObject = (bucket, key) => deleteObjectFiles(store, bucket, key);
  store.putObject = (object) => putObjectFile(store, object);
  await server.run();
  return { close: () => server.close() };
}
