/** s3rver, an S3-compatible server on loopback, for the files bucket in local mode. */
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';

export interface S3LocalOptions {
  port: number;
  directory: string;
  bucketNames: string[];
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
  await server.run();
  return { close: () => server.close() };
}
