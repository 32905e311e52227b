/**
 * The local AWS endpoint (`local/iam/local-aws-endpoint.ts`) in front of the integration tier's
 * DynamoDB Local and s3rver: a function's allowed calls go through, its refused calls fail in
 * the SDK and in our own S3 requests as they fail in AWS, each refusal is logged, and each
 * allowed call is recorded for the coverage report.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { accessKeyIdOf, LOCAL_SECRET_ACCESS_KEY } from '../../local/iam/function-credentials';
import type { FunctionIdentity, PolicyDocument } from '../../local/iam/iam-evaluation';
import { type LocalAwsEndpoint, startLocalAwsEndpoint } from '../../local/iam/local-aws-endpoint';

const ACCOUNT = '111122223333';
const REGION = process.env.AWS_REGION ?? 'us-east-1';
const TABLE = process.env.TABLE_NAME ?? 'asset-registry';
const BUCKET = process.env.FILES_BUCKET_NAME ?? 'asset-registry-files';
const TABLE_ARN = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${TABLE}`;
const BUCKET_ARN = `arn:aws:s3:::${BUCKET}`;
const FUNCTION_NAME = 'asset-registry-GetObject';
const OTHER_FUNCTION = 'asset-registry-ListCategories';
const STREAM_READER = 'asset-registry-PublishLedgerEvents';

const policy = (...statements: unknown[]): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: statements,
});

/** The role of the function under test: reads and writes objects, queries gsi1 only, no list. */
const identity: FunctionIdentity = {
  functionName: FUNCTION_NAME,
  roleArn: `arn:aws:iam::${ACCOUNT}:role/${FUNCTION_NAME}-Role`,
  identityPolicies: [
    {
      name: 'DefaultPolicy',
      policy: policy(
        { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: TABLE_ARN },
        { Effect: 'Allow', Action: 'dynamodb:Query', Resource: `${TABLE_ARN}/index/gsi1` },
        { Effect: 'Allow', Action: ['s3:PutObject'], Resource: `${BUCKET_ARN}/companies/*` },
        { Effect: 'Allow', Action: ['s3:GetObject'], Resource: `${BUCKET_ARN}/companies/*/public/*` },
      ),
    },
  ],
};
const otherIdentity: FunctionIdentity = {
  functionName: OTHER_FUNCTION,
  roleArn: `arn:aws:iam::${ACCOUNT}:role/${OTHER_FUNCTION}-Role`,
  identityPolicies: [
    {
      name: 'DefaultPolicy',
      policy: policy(
        { Effect: 'Allow', Action: ['s3:GetObject'], Resource: `${BUCKET_ARN}/companies/*` },
        { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: BUCKET_ARN },
      ),
    },
  ],
};

/** The stream publisher's role: the table's stream only. */
const streamReader: FunctionIdentity = {
  functionName: STREAM_READER,
  roleArn: `arn:aws:iam::${ACCOUNT}:role/${STREAM_READER}-Role`,
  identityPolicies: [
    {
      name: 'DefaultPolicy',
      policy: policy({
        Effect: 'Allow',
        Action: ['dynamodb:DescribeStream', 'dynamodb:GetShardIterator', 'dynamodb:GetRecords'],
        Resource: `${TABLE_ARN}/stream/*`,
      }),
    },
  ],
};

const credentialsOf = (functionName: string) => ({
  accessKeyId: accessKeyIdOf(functionName),
  secretAccessKey: LOCAL_SECRET_ACCESS_KEY,
});

let endpoint: LocalAwsEndpoint;
const logged: string[] = [];
const coverageDirectory = mkdtempSync(join(tmpdir(), 'iam-coverage-'));
const coverageFile = join(coverageDirectory, 'calls.jsonl');

const documentsAs = (functionName: string) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: endpoint.url, region: REGION, credentials: credentialsOf(functionName) }),
  );
const s3As = (functionName: string) =>
  new S3Client({
    endpoint: endpoint.url,
    forcePathStyle: true,
    region: REGION,
    credentials: credentialsOf(functionName),
  });

beforeAll(async () => {
  const dynamodb = process.env.LOCAL_DYNAMODB_ENDPOINT;
  const s3 = process.env.AWS_ENDPOINT_URL_S3;
  if (!dynamodb || !s3) throw new Error('The integration global setup gave no DynamoDB Local or s3rver');
  endpoint = await startLocalAwsEndpoint({
    account: { region: REGION, accountId: ACCOUNT },
    callers: new Map([
      [accessKeyIdOf(FUNCTION_NAME), identity],
      [accessKeyIdOf(OTHER_FUNCTION), otherIdentity],
      [accessKeyIdOf(STREAM_READER), streamReader],
    ]),
    backends: { dynamodb, s3 },
    coverageFile,
    log: (line) => logged.push(line),
  });
});
afterAll(() => endpoint.close());
beforeEach(() => {
  logged.length = 0;
});

describe('DynamoDB through the endpoint', () => {
  it('an allowed PutItem and GetItem go through to DynamoDB Local (whose Host is not its own)', async () => {
    // Prepare
    const documents = documentsAs(FUNCTION_NAME);
    const pk = `T#${randomUUID()}#OBJECT#1`;
    // Act
    await documents.send(new PutCommand({ TableName: TABLE, Item: { pk, sk: 'META', name: 'lamp' } }));
    const { Item } = await documents.send(new GetCommand({ TableName: TABLE, Key: { pk, sk: 'META' } }));
    // Assess
    expect(Item).toEqual({ pk, sk: 'META', name: 'lamp' });
    expect(logged).toEqual([]);
  });

  it('a Query on an index the role does not name fails in the SDK with AccessDeniedException, and is logged', async () => {
    // Prepare
    const documents = documentsAs(FUNCTION_NAME);
    const query = new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :company',
      ExpressionAttributeValues: { ':company': 'T#1#CATEGORIES' },
    });
    // Act
    const error = await documents.send(query).catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
      message:
        `User: arn:aws:sts::${ACCOUNT}:assumed-role/${FUNCTION_NAME}-Role/${FUNCTION_NAME} is not authorized to ` +
        `perform: dynamodb:Query on resource: ${TABLE_ARN}/index/gsi2 because no identity-based policy allows ` +
        'the dynamodb:Query action',
    });
    expect(logged.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        functionName: FUNCTION_NAME,
        action: 'dynamodb:Query',
        resource: `${TABLE_ARN}/index/gsi2`,
      }),
    ]);
    expect(logged.join('\n')).not.toMatch(
      new RegExp(`${accessKeyIdOf(FUNCTION_NAME)}|Signature|${LOCAL_SECRET_ACCESS_KEY}`),
    );
  });

  it('the same Query on the index the role names goes through', async () => {
    // Act
    const { Items } = await documentsAs(FUNCTION_NAME).send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :key',
        ExpressionAttributeValues: { ':key': `T#${randomUUID()}#NOTHING` },
      }),
    );
    // Assess
    expect(Items).toEqual([]);
  });

  it("the table's stream: read by a role granted its stream, refused to one that is not; GetRecords by its iterator", async () => {
    // Prepare: the stream's ARN as DynamoDB Local names it, read straight from DynamoDB Local.
    const direct = new DynamoDBClient({
      endpoint: process.env.LOCAL_DYNAMODB_ENDPOINT,
      region: REGION,
      credentials: credentialsOf('fixture'),
    });
    const { Table } = await direct.send(new DescribeTableCommand({ TableName: TABLE }));
    const streamArn = Table?.LatestStreamArn as string;
    const streamsAs = (functionName: string) =>
      new DynamoDBStreamsClient({
        endpoint: endpoint.url,
        region: REGION,
        credentials: credentialsOf(functionName),
      });
    const reader = streamsAs(STREAM_READER);
    // Act
    const { StreamDescription } = await reader.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const { ShardIterator } = await reader.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: StreamDescription?.Shards?.[0]?.ShardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    const records = await reader.send(new GetRecordsCommand({ ShardIterator, Limit: 1 }));
    const refused = await streamsAs(FUNCTION_NAME)
      .send(new DescribeStreamCommand({ StreamArn: streamArn }))
      .catch((caught: unknown) => caught);
    // Assess
    expect(records.$metadata.httpStatusCode).toBe(200);
    expect(refused).toMatchObject({ name: 'AccessDeniedException' });
    expect(endpoint.coverage()).toEqual(
      expect.arrayContaining(
        ['DescribeStream', 'GetShardIterator', 'GetRecords'].map((action) => ({
          functionName: STREAM_READER,
          action: `dynamodb:${action}`,
          resourcePattern: `${TABLE_ARN}/stream/*`,
          policyType: 'identity',
        })),
      ),
    );
  });

  it('a key no function signs with is refused as AWS refuses an unknown key', async () => {
    // Act
    const error = await documentsAs('not-a-function')
      .send(new GetCommand({ TableName: TABLE, Key: { pk: 'x', sk: 'y' } }))
      .catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ name: 'UnrecognizedClientException' });
  });
});

describe('S3 through the endpoint', () => {
  it('an allowed PutObject is stored; a GetObject outside the granted keys fails with AccessDenied 403', async () => {
    // Prepare
    const key = `companies/${randomUUID()}/files/a.txt`;
    const s3 = s3As(FUNCTION_NAME);
    // Act
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'hello', ContentType: 'text/plain' }),
    );
    const refused = await s3
      .send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      .catch((caught: unknown) => caught);
    const readByOther = await s3As(OTHER_FUNCTION).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    // Assess
    expect(refused).toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect(await readByOther.Body?.transformToString()).toBe('hello');
  });

  it('through our own S3 requests (s3-objects.ts): the same put, and the same refusal', async () => {
    // Prepare: the function's environment, as its worker has it.
    const saved = { ...process.env };
    process.env.AWS_ENDPOINT_URL_S3 = endpoint.url;
    process.env.AWS_ACCESS_KEY_ID = accessKeyIdOf(FUNCTION_NAME);
    process.env.AWS_SECRET_ACCESS_KEY = LOCAL_SECRET_ACCESS_KEY;
    delete process.env.AWS_SESSION_TOKEN;
    try {
      const objects = await import('../../lambdas/shared/s3-objects.js');
      const key = `companies/${randomUUID()}/files/b.txt`;
      // Act
      await objects.putObject({ bucket: BUCKET, key }, Buffer.from('from our code'), 'text/plain');
      const refused = await objects
        .getObjectBytes({ bucket: BUCKET, key })
        .catch((caught: unknown) => caught);
      // Assess
      expect(refused).toMatchObject({ name: 'AwsRequestError', status: 403, code: 'AccessDenied' });
      const stored = await s3As(OTHER_FUNCTION).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(await stored.Body?.transformToString()).toBe('from our code');
    } finally {
      process.env = saved;
    }
  });

  it("presigned addresses are checked against the signer's role: a form POST stores, a GET outside its grant is refused", async () => {
    // Prepare
    const saved = { ...process.env };
    process.env.AWS_ENDPOINT_URL_S3 = endpoint.url;
    process.env.AWS_ACCESS_KEY_ID = accessKeyIdOf(FUNCTION_NAME);
    process.env.AWS_SECRET_ACCESS_KEY = LOCAL_SECRET_ACCESS_KEY;
    delete process.env.AWS_SESSION_TOKEN;
    try {
      const presign = await import('../../lambdas/shared/s3-presign.js');
      const key = `companies/${randomUUID()}/files/form.txt`;
      const form = await presign.presignedPost({ bucket: BUCKET, key }, [], {}, 300);
      const body = new FormData();
      for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
      body.append('file', new Blob(['posted through a form']), 'form.txt');
      // Act
      const posted = await fetch(form.url, { method: 'POST', body });
      const download = await fetch(await presign.presignedGetUrl({ bucket: BUCKET, key }, {}, 300));
      // Assess
      expect(posted.status).toBe(204);
      expect(download.status).toBe(403);
      expect(await download.text()).toContain('<Code>AccessDenied</Code>');
      const stored = await s3As(OTHER_FUNCTION).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(await stored.Body?.transformToString()).toBe('posted through a form');
    } finally {
      process.env = saved;
    }
  });

  it('a missing object is 404 to a caller who may list the bucket, 403 to one who may not (as S3 does)', async () => {
    // Prepare
    const key = `companies/${randomUUID()}/public/missing.txt`;
    // Act
    const withoutList = await s3As(FUNCTION_NAME)
      .send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      .catch((caught: unknown) => caught);
    const withList = await s3As(OTHER_FUNCTION)
      .send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      .catch((caught: unknown) => caught);
    // Assess
    expect(withoutList).toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect(withList).toMatchObject({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
  });

  it('streams a 64 MB upload and its download through unchanged', async () => {
    // Prepare
    const key = `companies/${randomUUID()}/public/large.bin`;
    const bytes = Buffer.alloc(64 * 1024 * 1024, 7);
    bytes.write(randomUUID());
    const s3 = s3As(FUNCTION_NAME);
    // Act
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: bytes }));
    const response = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const downloaded = Buffer.from((await response.Body?.transformToByteArray()) ?? []);
    // Assess
    const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(downloaded.length).toBe(bytes.length);
    expect(digest(downloaded)).toBe(digest(bytes));
  }, 60_000);
});

it('records each allowed call once, with the resource pattern of the statement that allowed it', () => {
  // Assess (the calls of the tests above)
  const recorded = readFileSync(coverageFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(recorded).toEqual(endpoint.coverage());
  expect(recorded).toEqual(
    expect.arrayContaining([
      {
        functionName: FUNCTION_NAME,
        action: 'dynamodb:GetItem',
        resourcePattern: TABLE_ARN,
        policyType: 'identity',
      },
      {
        functionName: FUNCTION_NAME,
        action: 'dynamodb:Query',
        resourcePattern: `${TABLE_ARN}/index/gsi1`,
        policyType: 'identity',
      },
      {
        functionName: FUNCTION_NAME,
        action: 's3:PutObject',
        resourcePattern: `${BUCKET_ARN}/companies/*`,
        policyType: 'identity',
      },
      {
        functionName: OTHER_FUNCTION,
        action: 's3:ListBucket',
        resourcePattern: BUCKET_ARN,
        policyType: 'identity',
      },
    ]),
  );
  expect(new Set(recorded.map((record) => JSON.stringify(record))).size).toBe(recorded.length);
});
