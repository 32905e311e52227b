/**
 * A table and a bucket of its own for a test file that checks the whole log (tree size, every
 * index), so that events written by test files running beside it cannot change its counts.
 * The handler modules read `TABLE_NAME` and `DIGEST_BUCKET_NAME` on use.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { type LogSigner, localSigner } from '../../lambdas/domain/ledger/log-signer';
import { createTableIfMissing } from '../../local/table-setup';
import { localS3 } from './s3-client';

export interface IsolatedLedger {
  signer: LogSigner;
  /** The signer's origin and key file, for a sequencer in a child process (`signerFromEnvironment`). */
  origin: string;
  keyFile: string;
  restore(): void;
}

/** Points this test file at a fresh table and bucket, with a fresh signing key. */
export async function useIsolatedLedger(origin = 'test.example/ledger'): Promise<IsolatedLedger> {
  const previous = { table: process.env.TABLE_NAME, bucket: process.env.DIGEST_BUCKET_NAME };
  const suffix = randomUUID().slice(0, 8);
  const table = `ledger-test-${suffix}`;
  const bucket = `ledger-test-${suffix}`;
  const client = new DynamoDBClient({
    endpoint: process.env.LOCAL_DYNAMODB_ENDPOINT,
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await createTableIfMissing(client, table);
  client.destroy();
  await localS3().send(new CreateBucketCommand({ Bucket: bucket }));
  process.env.TABLE_NAME = table;
  process.env.DIGEST_BUCKET_NAME = bucket;
  const keyFile = join(mkdtempSync(join(tmpdir(), 'ledger-key-')), 'signing-key.pem');
  return {
    signer: localSigner(origin, keyFile),
    origin,
    keyFile,
    restore() {
      process.env.TABLE_NAME = previous.table;
      process.env.DIGEST_BUCKET_NAME = previous.bucket;
    },
  };
}
