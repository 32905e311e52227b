/**
 * The authorizations read from the requests the functions really send (`local/iam/
 * aws-request-actions.ts`): each request is built by the SDK client the code uses (captured by
 * its request handler, nothing sent) or by our own signed-request code (stopped by an observer
 * before it leaves), then translated. No network.
 */
import {
  DescribeTableCommand,
  DynamoDBClient,
  QueryCommand as LowLevelQueryCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type AuthorizationRequest,
  type AwsHttpRequest,
  authorizationRequestsOf,
  PROJECT_TABLE_KEY_SCHEMA,
  type RequestTranslation,
  type SigningService,
} from '../../local/iam/aws-request-actions';
import {
  ourRequests,
  sdkCapture,
  useLambdaRoleEnvironment,
  type WireRequest,
  wire,
} from '../support/signed-requests';

const ACCOUNT = '111122223333';
const TRANSLATION: RequestTranslation = { region: 'eu-west-1', accountId: ACCOUNT };
const TABLE = 'asset-registry-table';
const TABLE_ARN = `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/${TABLE}`;
const BUCKET = 'asset-registry-files-a1b2c3';
const KEY = 'companies/3b0d6a52/files/9c8b7a65 (copy)+ü*';
const OBJECT_ARN = `arn:aws:s3:::${BUCKET}/${KEY}`;
const KEY_ARN = `arn:aws:kms:eu-west-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const QUEUE_URL = `https://sqs.eu-west-1.amazonaws.com/${ACCOUNT}/asset-registry-webhooks.fifo`;
/** S3 puts the uploaded file's name where a form's key says `${filename}`. */
const FILENAME = ['$', '{filename}'].join('');
const JOB_FUNCTION = 'asset-registry-ImportObjects-AbC123';

/** A captured request as the local endpoint reads it. */
const httpRequestOf = (request: WireRequest): AwsHttpRequest => ({
  method: request.method,
  path: request.path,
  query: Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, value as string])),
  headers: { ...request.headers, host: request.hostname },
  body: Buffer.from(request.body, 'utf8'),
});

const translated = (request: WireRequest, service: SigningService, translation = TRANSLATION) =>
  authorizationRequestsOf(httpRequestOf(request), service, translation);

/** The action and resource of each authorization, without the condition keys. */
const actionsOn = (authorizations: AuthorizationRequest[]) =>
  authorizations.map(({ action, resource }) => ({ action, resource }));

const capture = sdkCapture();
const dynamoDb = capture.watch(new DynamoDBClient(capture.options));
const documents = DynamoDBDocumentClient.from(dynamoDb);
const streams = capture.watch(new DynamoDBStreamsClient(capture.options));
const s3 = capture.watch(
  new S3Client({
    ...capture.options,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }),
);
/** How a worker reaches the local endpoint: an IP address, which the SDK addresses path-style. */
const s3PathStyle = capture.watch(
  new S3Client({
    ...capture.options,
    endpoint: 'http://127.0.0.1:4566',
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }),
);
const kms = capture.watch(new KMSClient(capture.options));
const events = capture.watch(new EventBridgeClient(capture.options));
const secrets = capture.watch(new SecretsManagerClient(capture.options));

describe('DynamoDB: each command is its action on the table, with the partition keys it touches', () => {
  it('reads the project table key schema: pk, and gsiNpk for each index', () => {
    expect(PROJECT_TABLE_KEY_SCHEMA.partitionKey).toBe('pk');
    expect(PROJECT_TABLE_KEY_SCHEMA.indexPartitionKeys.gsi1).toBe('gsi1pk');
    expect(PROJECT_TABLE_KEY_SCHEMA.indexPartitionKeys.gsi6).toBe('gsi6pk');
  });

  it.each([
    ['GetItem', new GetCommand({ TableName: TABLE, Key: { pk: 'T#1#OBJECT#7', sk: 'META' } })],
    ['PutItem', new PutCommand({ TableName: TABLE, Item: { pk: 'T#1#OBJECT#7', sk: 'META', name: 'x' } })],
    [
      'UpdateItem',
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: 'T#1#OBJECT#7', sk: 'META' },
        UpdateExpression: 'SET #n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'y' },
      }),
    ],
    ['DeleteItem', new DeleteCommand({ TableName: TABLE, Key: { pk: 'T#1#OBJECT#7', sk: 'META' } })],
  ])('%s', async (action, command) => {
    // Act
    const authorizations = translated(await capture.request(documents, command), 'dynamodb');
    // Assess
    expect(authorizations).toEqual([
      {
        action: `dynamodb:${action}`,
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['T#1#OBJECT#7'] },
      },
    ]);
  });

  it('UpdateItem with ReturnValues gives dynamodb:ReturnValues', async () => {
    // Act
    const [authorization] = translated(
      await capture.request(
        documents,
        new UpdateCommand({
          TableName: TABLE,
          Key: { pk: 'T#1#COUNTERS', sk: 'OBJECTS' },
          UpdateExpression: 'ADD objectCount :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorization?.context).toEqual({
      'dynamodb:LeadingKeys': ['T#1#COUNTERS'],
      'dynamodb:ReturnValues': 'UPDATED_NEW',
    });
  });

  it('Query on the table: the value bound to pk in the key condition', async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        documents,
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
          ExpressionAttributeValues: { ':pk': 'T#1#IMPORT#9', ':prefix': 'DONE#' },
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'dynamodb:Query',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['T#1#IMPORT#9'] },
      },
    ]);
  });

  it('Query on an index: the index ARN, and the value bound to its own partition key (either side of =)', async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        documents,
        new QueryCommand({
          TableName: TABLE,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2sk > :after AND :company = gsi2pk',
          ExpressionAttributeValues: { ':company': 'T#1#CATEGORIES', ':after': 'A', ':pk': 'not the key' },
          Select: 'ALL_ATTRIBUTES',
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'dynamodb:Query',
        resource: `${TABLE_ARN}/index/gsi2`,
        context: { 'dynamodb:LeadingKeys': ['T#1#CATEGORIES'], 'dynamodb:Select': 'ALL_ATTRIBUTES' },
      },
    ]);
  });

  it('Query with the legacy KeyConditions', async () => {
    // Act
    const [authorization] = translated(
      await capture.request(
        dynamoDb,
        new LowLevelQueryCommand({
          TableName: TABLE,
          KeyConditions: { pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'T#2#LOG' }] } },
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorization?.context).toEqual({ 'dynamodb:LeadingKeys': ['T#2#LOG'] });
  });

  it('BatchGetItem and BatchWriteItem: the batch action on each table, with every item partition key once', async () => {
    // Act
    const reads = translated(
      await capture.request(
        documents,
        new BatchGetCommand({
          RequestItems: {
            [TABLE]: {
              Keys: [
                { pk: 'A', sk: '1' },
                { pk: 'B', sk: '1' },
                { pk: 'A', sk: '2' },
              ],
            },
            other: { Keys: [{ pk: 'C', sk: '1' }] },
          },
        }),
      ),
      'dynamodb',
    );
    const writes = translated(
      await capture.request(
        documents,
        new BatchWriteCommand({
          RequestItems: {
            [TABLE]: [
              { PutRequest: { Item: { pk: 'A', sk: '3' } } },
              { DeleteRequest: { Key: { pk: 'D', sk: '1' } } },
            ],
          },
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(reads).toEqual([
      {
        action: 'dynamodb:BatchGetItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['A', 'B'] },
      },
      {
        action: 'dynamodb:BatchGetItem',
        resource: `arn:aws:dynamodb:eu-west-1:${ACCOUNT}:table/other`,
        context: { 'dynamodb:LeadingKeys': ['C'] },
      },
    ]);
    expect(writes).toEqual([
      {
        action: 'dynamodb:BatchWriteItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['A', 'D'] },
      },
    ]);
  });

  it("TransactWriteItems: each item's own action, enclosed in the transaction", async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        documents,
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { pk: 'P', sk: '1' } } },
            {
              Update: {
                TableName: TABLE,
                Key: { pk: 'U', sk: '1' },
                UpdateExpression: 'SET a = :a',
                ExpressionAttributeValues: { ':a': 1 },
              },
            },
            { Delete: { TableName: TABLE, Key: { pk: 'D', sk: '1' } } },
            {
              ConditionCheck: {
                TableName: TABLE,
                Key: { pk: 'C', sk: '1' },
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
          ],
        }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorizations).toEqual(
      [
        ['PutItem', 'P'],
        ['UpdateItem', 'U'],
        ['DeleteItem', 'D'],
        ['ConditionCheckItem', 'C'],
      ].map(([action, key]) => ({
        action: `dynamodb:${action}`,
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': [key], 'dynamodb:EnclosingOperation': 'TransactWriteItems' },
      })),
    );
  });

  it('TransactGetItems: GetItem for each item, enclosed in the transaction', async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        documents,
        new TransactGetCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: { pk: 'G', sk: '1' } } }] }),
      ),
      'dynamodb',
    );
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'dynamodb:GetItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['G'], 'dynamodb:EnclosingOperation': 'TransactGetItems' },
      },
    ]);
  });

  it('DescribeTable: on the table, without keys', async () => {
    // Act
    const authorizations = translated(
      await capture.request(dynamoDb, new DescribeTableCommand({ TableName: TABLE })),
      'dynamodb',
    );
    // Assess
    expect(authorizations).toEqual([{ action: 'dynamodb:DescribeTable', resource: TABLE_ARN, context: {} }]);
  });

  it("Streams: on the stream, named in the endpoint's region and account; GetRecords through its iterator", async () => {
    // Prepare
    const localStreamArn =
      'arn:aws:dynamodb:ddblocal:000000000000:table/asset-registry-table/stream/2026-11-27T10:00:00.000';
    const streamArn = `${TABLE_ARN}/stream/2026-11-27T10:00:00.000`;
    const translation = {
      ...TRANSLATION,
      streamArnOfIterator: (iterator: string) => (iterator === 'it-1' ? localStreamArn : undefined),
    };
    // Act
    const described = translated(
      await capture.request(streams, new DescribeStreamCommand({ StreamArn: localStreamArn })),
      'dynamodb',
    );
    const iterated = translated(
      await capture.request(
        streams,
        new GetShardIteratorCommand({
          StreamArn: localStreamArn,
          ShardId: 's-1',
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      ),
      'dynamodb',
    );
    const records = translated(
      await capture.request(streams, new GetRecordsCommand({ ShardIterator: 'it-1' })),
      'dynamodb',
      translation,
    );
    // Assess
    expect([...described, ...iterated, ...records]).toEqual(
      ['DescribeStream', 'GetShardIterator', 'GetRecords'].map((action) => ({
        action: `dynamodb:${action}`,
        resource: streamArn,
        context: {},
      })),
    );
  });
});

describe('S3: each SDK request is its action on the object or the bucket', () => {
  const objectActions = async (client: S3Client, command: unknown) =>
    actionsOn(translated(await capture.request(client, command), 's3'));

  it.each([
    ['virtual-hosted', s3],
    ['path-style', s3PathStyle],
  ])('%s GetObject, with and without a version', async (_style, client) => {
    // Act
    const current = await objectActions(client, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
    const version = translated(
      await capture.request(client, new GetObjectCommand({ Bucket: BUCKET, Key: KEY, VersionId: 'v1' })),
      's3',
    );
    // Assess
    expect(current).toEqual([{ action: 's3:GetObject', resource: OBJECT_ARN }]);
    expect(actionsOn(version)).toEqual([{ action: 's3:GetObjectVersion', resource: OBJECT_ARN }]);
    expect(version[0]?.context).toMatchObject({ 's3:versionid': 'v1', 's3:authType': 'REST-HEADER' });
  });

  it('PutObject with Object Lock retention also needs s3:PutObjectRetention', async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        s3,
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: KEY,
          Body: 'x',
          ObjectLockMode: 'COMPLIANCE',
          ObjectLockRetainUntilDate: new Date('2027-11-27T00:00:00Z'),
        }),
      ),
      's3',
    );
    // Assess
    expect(actionsOn(authorizations)).toEqual([
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:PutObjectRetention', resource: OBJECT_ARN },
    ]);
    expect(authorizations[0]?.context).toMatchObject({ 's3:object-lock-mode': 'COMPLIANCE' });
  });

  it('the multipart upload: create, part and complete are PutObject; abort is AbortMultipartUpload', async () => {
    // Act
    const actions = [
      ...(await objectActions(s3, new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: KEY }))),
      ...(await objectActions(
        s3,
        new UploadPartCommand({ Bucket: BUCKET, Key: KEY, UploadId: 'u1', PartNumber: 1, Body: 'x' }),
      )),
      ...(await objectActions(
        s3,
        new CompleteMultipartUploadCommand({
          Bucket: BUCKET,
          Key: KEY,
          UploadId: 'u1',
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"e"' }] },
        }),
      )),
      ...(await objectActions(
        s3,
        new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: KEY, UploadId: 'u1' }),
      )),
    ];
    // Assess
    expect(actions.map(({ action }) => action)).toEqual([
      's3:PutObject',
      's3:PutObject',
      's3:PutObject',
      's3:AbortMultipartUpload',
    ]);
  });

  it('ListObjectsV2 is s3:ListBucket on the bucket with s3:prefix', async () => {
    // Act
    const [authorization] = translated(
      await capture.request(
        s3PathStyle,
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'log/tile/', Delimiter: '/' }),
      ),
      's3',
    );
    // Assess
    expect(authorization).toMatchObject({
      action: 's3:ListBucket',
      resource: `arn:aws:s3:::${BUCKET}`,
      context: { 's3:prefix': 'log/tile/', 's3:delimiter': '/' },
    });
  });
});

describe('S3: our own requests (lambdas/shared/s3-*.ts)', () => {
  let aws: typeof import('../../lambdas/shared/aws-requests.js');
  let objects: typeof import('../../lambdas/shared/s3-objects.js');
  let upload: typeof import('../../lambdas/shared/s3-streamed-upload.js');
  let s3Requests: typeof import('../../lambdas/shared/s3-requests.js');
  let presign: typeof import('../../lambdas/shared/s3-presign.js');
  let secretBox: typeof import('../../lambdas/shared/secret-box.js');
  let deliveryQueue: typeof import('../../lambdas/repositories/delivery-queue.js');
  let backgroundJobs: typeof import('../../lambdas/shared/background-jobs.js');

  beforeAll(async () => {
    useLambdaRoleEnvironment();
    delete process.env.LOCAL_BACKGROUND_JOBS;
    process.env.SECRETS_KEY_ID = KEY_ARN;
    process.env.WEBHOOK_QUEUE_URL = QUEUE_URL;
    process.env.IMPORT_OBJECTS_FUNCTION_NAME = JOB_FUNCTION;
    aws = await import('../../lambdas/shared/aws-requests.js');
    objects = await import('../../lambdas/shared/s3-objects.js');
    upload = await import('../../lambdas/shared/s3-streamed-upload.js');
    s3Requests = await import('../../lambdas/shared/s3-requests.js');
    presign = await import('../../lambdas/shared/s3-presign.js');
    secretBox = await import('../../lambdas/shared/secret-box.js');
    deliveryQueue = await import('../../lambdas/repositories/delivery-queue.js');
    backgroundJobs = await import('../../lambdas/shared/background-jobs.js');
  });

  /** The authorizations of every request `act` sends. */
  const ours = async (service: SigningService, act: () => Promise<unknown>) =>
    (await ourRequests(aws, act)).flatMap((request) => translated(request, service));

  it('putObject, getObjectStream, headObject', async () => {
    // Act
    const put = await ours('s3', () =>
      objects.putObject({ bucket: BUCKET, key: KEY }, Buffer.from('x'), 'text/plain'),
    );
    const get = await ours('s3', () =>
      objects.getObjectStream({ bucket: BUCKET, key: KEY, versionId: 'v2' }),
    );
    const head = await ours('s3', () => objects.headObject({ bucket: BUCKET, key: KEY }));
    // Assess
    expect(actionsOn([...put, ...get, ...head])).toEqual([
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:GetObjectVersion', resource: OBJECT_ARN },
      { action: 's3:GetObject', resource: OBJECT_ARN },
    ]);
  });

  it('copyObject needs PutObject on the target and GetObject(Version) on the source', async () => {
    // Act
    const authorizations = await ours('s3', () =>
      objects.copyObject({ bucket: BUCKET, key: 'uploads/1/u', versionId: 'v7' }, KEY, 'image/png'),
    );
    // Assess
    expect(actionsOn(authorizations)).toEqual([
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:GetObjectVersion', resource: `arn:aws:s3:::${BUCKET}/uploads/1/u` },
    ]);
  });

  it('deleteObjects: DeleteObject or DeleteObjectVersion for each key it names', async () => {
    // Act
    const authorizations = await ours('s3', () =>
      objects.deleteObjects(BUCKET, [{ key: KEY }, { key: 'companies/1/a&b', versionId: 'v3' }]),
    );
    // Assess
    expect(actionsOn(authorizations)).toEqual([
      { action: 's3:DeleteObject', resource: OBJECT_ARN },
      { action: 's3:DeleteObjectVersion', resource: `arn:aws:s3:::${BUCKET}/companies/1/a&b` },
    ]);
  });

  it('a streamed upload: create, parts and complete are PutObject; abort is AbortMultipartUpload', async () => {
    // Prepare
    const target = { bucket: BUCKET, key: KEY };
    const requests = await Promise.all(
      [
        upload.multipartRequests.create(target, 'text/plain'),
        upload.multipartRequests.uploadPart(target, 'u1', 1, Buffer.from('x')),
        upload.multipartRequests.complete(target, 'u1', ['"e1"']),
        upload.multipartRequests.abort(target, 'u1'),
      ].map(async (request) => wire(await s3Requests.signedS3Request(request))),
    );
    // Act
    const authorizations = requests.flatMap((request) => translated(request, 's3'));
    // Assess
    expect(actionsOn(authorizations)).toEqual([
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:PutObject', resource: OBJECT_ARN },
      { action: 's3:AbortMultipartUpload', resource: OBJECT_ARN },
    ]);
  });

  it('a presigned GET address: GetObject, signed in the query', async () => {
    // Act
    const url = new URL(await presign.presignedGetUrl({ bucket: BUCKET, key: KEY }, {}, 300));
    const [authorization] = authorizationRequestsOf(
      {
        method: 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { host: url.host },
        body: Buffer.alloc(0),
      },
      's3',
      TRANSLATION,
    );
    // Assess
    expect(authorization).toMatchObject({
      action: 's3:GetObject',
      resource: OBJECT_ARN,
      context: { 's3:authType': 'REST-QUERY-STRING' },
    });
  });

  it("a presigned POST form: PutObject on the form's key", async () => {
    // Prepare
    const form = await presign.presignedPost({ bucket: BUCKET, key: `uploads/1/${FILENAME}` }, [], {}, 900);
    const boundary = 'form-boundary-1';
    const parts = Object.entries(form.fields).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    const body = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\nPNG…\r\n--${boundary}--\r\n`;
    const url = new URL(form.url);
    // Act
    const authorizations = authorizationRequestsOf(
      {
        method: 'POST',
        path: url.pathname,
        query: {},
        headers: { host: url.host, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.from(body),
      },
      's3',
      TRANSLATION,
    );
    // Assess
    expect(authorizations).toMatchObject([
      {
        action: 's3:PutObject',
        resource: `arn:aws:s3:::${BUCKET}/uploads/1/photo.png`,
        context: { 's3:authType': 'POST' },
      },
    ]);
  });

  it('KMS Encrypt through the secret box: on the key, with the encryption context', async () => {
    // Act
    const authorizations = await ours('kms', () => secretBox.sealSecret('s3cret', { companyId: 'c1' }));
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'kms:Encrypt',
        resource: KEY_ARN,
        context: {
          'kms:CallerAccount': ACCOUNT,
          'kms:EncryptionContextKeys': ['companyId'],
          'kms:EncryptionContext:companyId': 'c1',
        },
      },
    ]);
  });

  it('KMS Decrypt without KeyId: the key the ciphertext names, or none that a policy could allow', async () => {
    // Prepare
    const sealed = `kms:${Buffer.from('blob').toString('base64')}`;
    const requests = await ourRequests(aws, () => secretBox.openSecret(sealed, { companyId: 'c1' }));
    const [request] = requests;
    if (!request) throw new Error('nothing sent');
    // Act
    const resolved = translated(request, 'kms', { ...TRANSLATION, kmsKeyArnOfCiphertext: () => KEY_ARN });
    const unresolved = translated(request, 'kms');
    // Assess
    expect(actionsOn(resolved)).toEqual([{ action: 'kms:Decrypt', resource: KEY_ARN }]);
    expect(unresolved[0]?.resource).toBe(`arn:aws:kms:eu-west-1:${ACCOUNT}:key/unknown`);
  });

  it("SQS SendMessageBatch and ChangeMessageVisibility: sqs:SendMessage and the action on the URL's queue", async () => {
    // Act
    const sent = await ours('sqs', () =>
      deliveryQueue.enqueueDeliveries([
        { message: { deliveryId: 'd' } as never, lane: 'w#0', deduplicationId: 'd-0' },
      ]),
    );
    const retried = await ours('sqs', () => deliveryQueue.retryMessageLater('AQEB+handle/==', 30));
    // Assess
    const queueArn = `arn:aws:sqs:eu-west-1:${ACCOUNT}:asset-registry-webhooks.fifo`;
    expect(actionsOn([...sent, ...retried])).toEqual([
      { action: 'sqs:SendMessage', resource: queueArn },
      { action: 'sqs:ChangeMessageVisibility', resource: queueArn },
    ]);
  });

  it('Lambda Invoke of a background job: lambda:InvokeFunction on the function', async () => {
    // Act
    const authorizations = await ours('lambda', () =>
      backgroundJobs.startBackgroundJob('importObjects', { companyId: 'c1', importId: 'i1' } as never),
    );
    // Assess
    expect(actionsOn(authorizations)).toEqual([
      {
        action: 'lambda:InvokeFunction',
        resource: `arn:aws:lambda:eu-west-1:${ACCOUNT}:function:${JOB_FUNCTION}`,
      },
    ]);
  });
});

describe('KMS, EventBridge and Secrets Manager through their SDK clients', () => {
  it('KMS Sign and GetPublicKey (the ledger signer): on the key; an alias is resolved to its key', async () => {
    // Prepare
    const aliasArn = `arn:aws:kms:eu-west-1:${ACCOUNT}:alias/ledger`;
    const translation = {
      ...TRANSLATION,
      kmsKeyArnOfAlias: (alias: string) => (alias === aliasArn ? KEY_ARN : undefined),
    };
    // Act
    const signed = translated(
      await capture.request(
        kms,
        new SignCommand({
          KeyId: KEY_ARN,
          Message: Buffer.from('m'),
          MessageType: 'RAW',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      ),
      'kms',
    );
    const publicKey = translated(
      await capture.request(kms, new GetPublicKeyCommand({ KeyId: 'alias/ledger' })),
      'kms',
      translation,
    );
    // Assess
    expect(signed).toEqual([
      {
        action: 'kms:Sign',
        resource: KEY_ARN,
        context: {
          'kms:CallerAccount': ACCOUNT,
          'kms:MessageType': 'RAW',
          'kms:SigningAlgorithm': 'ECDSA_SHA_256',
        },
      },
    ]);
    expect(publicKey).toEqual([
      {
        action: 'kms:GetPublicKey',
        resource: KEY_ARN,
        context: { 'kms:CallerAccount': ACCOUNT, 'kms:RequestAlias': aliasArn },
      },
    ]);
  });

  it("EventBridge PutEvents: events:PutEvents on each entry's bus", async () => {
    // Act
    const authorizations = translated(
      await capture.request(
        events,
        new PutEventsCommand({
          Entries: [
            {
              EventBusName: 'asset-registry',
              Source: 'asset-registry.ledger',
              DetailType: 'LedgerEvent',
              Detail: '{}',
            },
            { Source: 'asset-registry.ledger', DetailType: 'LedgerEvent', Detail: '{}' },
          ],
        }),
      ),
      'events',
    );
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'events:PutEvents',
        resource: `arn:aws:events:eu-west-1:${ACCOUNT}:event-bus/asset-registry`,
        context: { 'events:source': 'asset-registry.ledger', 'events:detail-type': 'LedgerEvent' },
      },
      {
        action: 'events:PutEvents',
        resource: `arn:aws:events:eu-west-1:${ACCOUNT}:event-bus/default`,
        context: { 'events:source': 'asset-registry.ledger', 'events:detail-type': 'LedgerEvent' },
      },
    ]);
  });

  it('Secrets Manager GetSecretValue (the cursor key): on the secret its ARN names', async () => {
    // Prepare
    const secretArn = `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:CursorKey-AbCdEf`;
    // Act
    const authorizations = translated(
      await capture.request(secrets, new GetSecretValueCommand({ SecretId: secretArn })),
      'secretsmanager',
    );
    // Assess
    expect(authorizations).toEqual([
      {
        action: 'secretsmanager:GetSecretValue',
        resource: secretArn,
        context: { 'secretsmanager:SecretId': secretArn },
      },
    ]);
  });
});
