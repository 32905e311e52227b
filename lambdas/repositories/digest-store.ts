/**
 * Ledger digests in S3, one JSON object per digest under `digests/<sequence>.json`. In AWS the
 * bucket has Object Lock in COMPLIANCE mode: nobody, root included, can change or delete a
 * digest before its retention ends. Digest sequence numbers come from a DynamoDB counter.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerDigest } from '#domain/ledger/ledger-digest.js';
import { digestBucketName, dynamoDb, tableName } from '#shared/clients.js';
import { s3 } from '#shared/s3-client.js';

const DIGEST_PREFIX = 'digests/';
const digestKey = (sequence: number) => `${DIGEST_PREFIX}${String(sequence).padStart(10, '0')}.json`;

/** The next digest sequence number (1, 2, ...), unique even when two digest jobs overlap. */
export async function nextDigestSequence(): Promise<number> {
  const { Attributes } = await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: 'LEDGER', sk: 'DIGEST_SEQUENCE' },
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Attributes?.value as number;
}

/** Stores a digest; returns its S3 key. */
export async function putDigest(digest: LedgerDigest): Promise<string> {
  const key = digestKey(digest.sequence);
  await s3.send(
    new PutObjectCommand({
      Bucket: digestBucketName(),
      Key: key,
      Body: JSON.stringify(digest),
      ContentType: 'application/json',
    }),
  );
  return key;
}

/** Every stored digest's key, oldest first. */
export async function listDigestKeys(): Promise<string[]> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: digestBucketName(),
        Prefix: DIGEST_PREFIX,
        ContinuationToken: continuationToken,
      }),
    );
    keys.push(...(page.Contents ?? []).map((object) => object.Key as string));
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken);
  return keys.sort();
}

export async function getDigest(key: string): Promise<LedgerDigest> {
  const response = await s3.send(new GetObjectCommand({ Bucket: digestBucketName(), Key: key }));
  return JSON.parse(
    await (response.Body as { transformToString(): Promise<string> }).transformToString(),
  ) as LedgerDigest;
}
