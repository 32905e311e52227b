/**
 * Least privilege, proven on the synthesized template: every function's role allows exactly
 * the data actions its declaration names, on exactly the resources they apply to; nothing is
 * `*`; reads cannot write; only the file operations reach the files bucket; and the partition
 * patterns in IAM conditions match the keys the repositories really use.
 */

import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { ImportTargets } from '../../lambdas/domain/imports/import-targets.js';
import { type OperationId, operationList } from '../../lambdas/operations.js';
import {
  exportResultKey,
  fileStorageKey,
  importSourceKey,
  UPLOAD_STAGING_PREFIX,
  uploadStagingKey,
} from '../../lambdas/repositories/file-repository.js';
import { subcategoryImageKey } from '../../lambdas/repositories/file-store.js';
import { idempotencyPartition } from '../../lambdas/repositories/idempotency-store.js';
import {
  findIdentityProvider,
  IDENTITY_PROVIDER_PARTITION,
} from '../../lambdas/repositories/identity-provider-repository.js';
import { findApiKey } from '../../lambdas/repositories/identity-repository.js';
import { outboxItem, readOutbox } from '../../lambdas/repositories/log-outbox.js';
import {
  readLogState,
  SEQUENCER_STATE_PARTITION,
  writePositions,
} from '../../lambdas/repositories/log-state-repository.js';
import { walkObjects } from '../../lambdas/repositories/object-repository.js';
import { findSession } from '../../lambdas/repositories/wallet-session-repository.js';
import { JOB_FUNCTION_ENVIRONMENT } from '../../lambdas/shared/background-jobs.js';
import {
  API_KEY_ITEM_PARTITIONS,
  WALLET_ITEM_PARTITIONS,
  WALLET_SESSION_ITEM_PARTITIONS,
} from '../../lib/api-key-authorizer.js';
import {
  EXPORT_OBJECTS_ACCESS,
  IMPORT_OBJECTS_ACCESS,
  REMOVE_SUBCATEGORY_DATA_ACCESS,
} from '../../lib/background-job-functions.js';
import { OUTBOX_PARTITIONS, POSITION_PARTITIONS } from '../../lib/ledger-log.js';
import {
  type DataAccess,
  FILE_KEY_PATTERN,
  IDEMPOTENCY_ACTIONS,
  IDEMPOTENCY_ITEM_PARTITIONS,
  LOG_KEY_PATTERN,
  UPLOAD_KEY_PATTERN,
} from '../../lib/operation-access.js';
import { takesCursor } from '../../lib/page-cursor-key.js';
import {
  actionsOf,
  type IamStatement,
  likePattern,
  resourcesOf,
  type SynthesizedStack,
  statementsOfRole,
  synthesizeStack,
} from './synthesized-stack.js';

let synthesized: SynthesizedStack;
let template: Template;
let tableArn: string;
let filesBucketArn: string;
let digestBucketArn: string;
let secretsKeyArn: string;
let deliveryQueueArn: string;

beforeAll(() => {
  // Act: one synth for the whole file.
  synthesized = synthesizeStack();
  template = synthesized.template;
  const getAtt = (construct: Parameters<SynthesizedStack['logicalIdOf']>[0]) =>
    JSON.stringify({ 'Fn::GetAtt': [synthesized.logicalIdOf(construct), 'Arn'] });
  tableArn = getAtt(synthesized.stack.dataStore.table);
  filesBucketArn = getAtt(synthesized.stack.dataStore.filesBucket);
  digestBucketArn = getAtt(synthesized.stack.ledgerLog.bucket);
  secretsKeyArn = getAtt(synthesized.stack.eventsOut.secretsKey);
  deliveryQueueArn = getAtt(synthesized.stack.eventsOut.deliveryQueue);
});

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  's3:PutObject',
  's3:DeleteObject',
  's3:DeleteObjectVersion',
  's3:AbortMultipartUpload',
];

/**
 * Rows that store, read or delete file bytes (object files and subcategory images), and the
 * import and export rows that presign or check their files under the staging prefix.
 */
const FILE_OPERATIONS: OperationId[] = [
  'createSubcategory',
  'updateSubcategory',
  'uploadFile',
  'downloadFile',
  'deleteFile',
  'createUploadSession',
  'completeUploadSession',
  'createImport',
  'startImport',
  'getExport',
];

/**
 * A GET that may start a background job (a large export) records the job's item and takes one
 * of the company's job slots (`lambdas/domain/job-slots.ts`), and writes nothing else.
 */
const JOB_RECORD_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];

const json = (value: unknown): string => JSON.stringify(value);
/** `{"Fn::Join":["",[<bucket arn>,"/companies/*"]]}`, as synthesized for an ARN under a bucket. */
const arnUnder = (arn: string, suffix: string): string =>
  json({ 'Fn::Join': ['', [JSON.parse(arn), `/${suffix}`]] });
const roleOf = (operationId: OperationId) =>
  synthesized.logicalIdOf(synthesized.stack.api.operationFunctions.get(operationId)!.role!);
const allows = (statements: IamStatement[]) => statements.filter((statement) => statement.Effect === 'Allow');

/** Each (action, resource, condition) a list of statements allows, but X-Ray's, sorted. */
const grantsOf = (statements: IamStatement[]): string[] =>
  allows(statements)
    .flatMap((statement) =>
      actionsOf(statement)
        .filter((action) => !action.startsWith('xray:'))
        .flatMap((action) =>
          resourcesOf(statement).map((resource) => json([action, resource, statement.Condition ?? null])),
        ),
    )
    .sort();
/**
 * Allow statements that are not the log group and X-Ray grants every function has, nor the
 * start of a background job (tested on its own).
 */
const dataStatements = (statements: IamStatement[]) =>
  allows(statements).filter(
    (statement) =>
      !actionsOf(statement).every((action) => /^(logs|xray):|^lambda:InvokeFunction$/.test(action)) &&
      !isCursorKeyRead(statement),
  );

/** The read of the page-cursor key (tested on its own). */
const isCursorKeyRead = (statement: IamStatement) =>
  json(actionsOf(statement)) === json(['secretsmanager:GetSecretValue']);

/** What a role's statements allow, in the shape of a declaration (plus what does not fit one). */
function observedAccess(statements: IamStatement[]) {
  const table = new Set<string>();
  const indexes = new Set<string>();
  const files = new Set<string>();
  const uploads = new Set<string>();
  const secrets = new Set<string>();
  const deliveryQueue = new Set<string>();
  const log = new Set<string>();
  let listsLog = false;
  const conditioned: IamStatement[] = [];
  const other: IamStatement[] = [];
  let listBucket = false;
  for (const statement of dataStatements(statements)) {
    // Listing the log bucket, limited to the log's keys: part of a `log` declaration.
    if (
      json(statement.Resource) === digestBucketArn &&
      json(statement.Condition) === JSON.stringify({ StringLike: { 's3:prefix': [LOG_KEY_PATTERN] } })
    ) {
      listsLog = true;
      continue;
    }
    if (statement.Condition) {
      conditioned.push(statement);
      continue;
    }
    for (const resource of resourcesOf(statement)) {
      const resourceJson = json(resource);
      const index = /"\/index\/([^"]+)"/.exec(resourceJson)?.[1];
      for (const action of actionsOf(statement)) {
        if (resourceJson === tableArn && action.startsWith('dynamodb:')) table.add(action.slice(9));
        else if (
          index &&
          resourceJson.includes(JSON.parse(tableArn)['Fn::GetAtt'][0]) &&
          action === 'dynamodb:Query'
        )
          indexes.add(index);
        else if (resourceJson === arnUnder(filesBucketArn, FILE_KEY_PATTERN) && action.startsWith('s3:'))
          files.add(action.slice(3));
        else if (resourceJson === arnUnder(filesBucketArn, UPLOAD_KEY_PATTERN) && action.startsWith('s3:'))
          uploads.add(action.slice(3));
        else if (resourceJson === filesBucketArn && action === 's3:ListBucket') listBucket = true;
        else if (resourceJson === secretsKeyArn && action.startsWith('kms:')) secrets.add(action.slice(4));
        else if (resourceJson === deliveryQueueArn && action.startsWith('sqs:'))
          deliveryQueue.add(action.slice(4));
        else if (resourceJson === arnUnder(digestBucketArn, LOG_KEY_PATTERN) && action.startsWith('s3:'))
          log.add(action.slice(3));
        else other.push(statement);
      }
    }
  }
  return {
    table,
    indexes,
    files,
    uploads,
    secrets,
    deliveryQueue,
    listBucket,
    log,
    listsLog,
    conditioned,
    other,
  };
}

const sorted = (values: Iterable<string> | undefined) => [...new Set(values ?? [])].sort();

describe('the page-cursor key', () => {
  it.each(operationList)('is readable by $id only if it lists, and only that one secret', (operation) => {
    // Prepare
    const [secretId, ...others] = Object.keys(template.findResources('AWS::SecretsManager::Secret'));
    // Act
    const reads = allows(statementsOfRole(template, roleOf(operation.id))).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('secretsmanager:')),
    );
    // Assess
    expect(others).toEqual([]);
    expect(reads).toEqual(
      takesCursor(operation)
        ? [{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } }]
        : [],
    );
  });
});

describe('the operation table declares every operation’s data access', () => {
  it('has a declaration on every row, so a new row cannot silently get broad rights', () => {
    // Act
    const undeclared = operationList
      .filter((operation) => operation.access === undefined)
      .map((row) => row.id);
    // Assess
    expect(undeclared).toEqual([]);
  });

  it.each(operationList)('gives $id exactly the access its row declares', (operation) => {
    // Prepare
    const declared: DataAccess = operation.access ?? {};
    // Act
    const observed = observedAccess(statementsOfRole(template, roleOf(operation.id)));
    // Assess
    expect(sorted(observed.table)).toEqual(sorted(declared.table));
    expect(sorted(observed.indexes)).toEqual(sorted(declared.indexes));
    const listed = (list: readonly string[] | undefined) =>
      (list ?? []).filter((action) => action !== 'ListBucket');
    expect(sorted(observed.files)).toEqual(sorted(listed(declared.files)));
    expect(sorted(observed.uploads)).toEqual(sorted(listed(declared.uploads)));
    expect(observed.listBucket).toBe(
      [...(declared.files ?? []), ...(declared.uploads ?? [])].includes('ListBucket'),
    );
    expect(sorted(observed.secrets)).toEqual(sorted(declared.secrets));
    expect(sorted(observed.deliveryQueue)).toEqual(sorted(declared.deliveryQueue));
    expect(sorted(observed.log)).toEqual(sorted(declared.log));
    expect(observed.listsLog).toBe((declared.log ?? []).length > 0);
    expect(observed.other).toEqual([]);
  });

  it.each(operationList)(
    'gives $id idempotency records only when idempotent, and only those',
    (operation) => {
      // Act
      const conditioned = observedAccess(statementsOfRole(template, roleOf(operation.id))).conditioned.map(
        (statement) => ({ ...statement, Action: actionsOf(statement).sort() }),
      );
      // Assess
      expect(conditioned).toEqual(
        operation.idempotent
          ? [
              {
                Effect: 'Allow',
                Action: IDEMPOTENCY_ACTIONS.map((action) => `dynamodb:${action}`).sort(),
                Resource: JSON.parse(tableArn),
                Condition: {
                  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [IDEMPOTENCY_ITEM_PARTITIONS] },
                },
              },
            ]
          : [],
      );
    },
  );

  it.each(operationList.filter((operation) => operation.method === 'GET'))(
    'lets $id (GET) write nothing (one that starts a job: its job item only)',
    ({ id, backgroundJobs }) => {
      // Act
      const actions = allows(statementsOfRole(template, roleOf(id))).flatMap(actionsOf);
      // Assess
      expect(actions.filter((action) => WRITE_ACTIONS.includes(action))).toEqual(
        backgroundJobs ? JOB_RECORD_WRITES : [],
      );
    },
  );

  it('lets only the file operations reach the files bucket', () => {
    // Act
    const reaching = operationList
      .filter((operation) =>
        allows(statementsOfRole(template, roleOf(operation.id))).some((statement) =>
          json(statement.Resource).includes(JSON.parse(filesBucketArn)['Fn::GetAtt'][0]),
        ),
      )
      .map((operation) => operation.id);
    // Assess
    expect(reaching.sort()).toEqual([...FILE_OPERATIONS].sort());
  });
});

describe('every function of the stack', () => {
  const everyRole = () =>
    Object.entries(template.findResources('AWS::Lambda::Function')).map(([functionId, resource]) => ({
      functionId,
      roleId: (resource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0],
    }));

  it('has a role of its own with no AWS managed policy', () => {
    // Prepare
    const roles = everyRole();
    // Assess
    expect(new Set(roles.map((role) => role.roleId)).size).toBe(roles.length);
    for (const { roleId } of roles) {
      expect(template.toJSON().Resources[roleId].Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('is allowed no "*" action, no service-wide wildcard, and "*" resources only for X-Ray', () => {
    // Act
    for (const { roleId } of everyRole()) {
      const statements = allows(statementsOfRole(template, roleId));
      // Assess
      for (const statement of statements) {
        for (const action of actionsOf(statement)) expect(action).not.toMatch(/\*/);
        if (resourcesOf(statement).includes('*')) {
          // dynamodb:ListStreams has no resource-level permissions; only the stream's readers have it.
          const streamReaders = [
            synthesized.stack.eventsOut.publisherFunction,
            synthesized.stack.ledgerLog.sequencerFunction,
          ];
          const allowed = [
            ...(streamReaders.some((reader) => roleId === synthesized.logicalIdOf(reader.role!))
              ? ['dynamodb:ListStreams']
              : []),
            'xray:PutTelemetryRecords',
            'xray:PutTraceSegments',
          ];
          expect(allowed).toEqual(expect.arrayContaining(actionsOf(statement)));
        }
        // Indexes are named one by one, never `index/*`.
        expect(json(statement.Resource)).not.toContain('/index/*');
      }
    }
  });

  it('writes only to its own log group', () => {
    for (const { functionId, roleId } of everyRole()) {
      // Prepare
      const logGroupId = (
        template.toJSON().Resources[functionId].Properties.LoggingConfig.LogGroup as { Ref: string }
      ).Ref;
      // Act
      const logStatements = allows(statementsOfRole(template, roleId)).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('logs:')),
      );
      // Assess
      expect(logStatements).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
        },
      ]);
    }
  });

  it('reaches no bucket but the files bucket and the log files (never the access-log bucket)', () => {
    // Prepare
    const accessLogsBucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.accessLogsBucket);
    // Act
    const statements = everyRole().flatMap(({ roleId }) => allows(statementsOfRole(template, roleId)));
    // Assess
    expect(json(statements)).not.toContain(accessLogsBucketId);
    for (const statement of statements.filter((each) => actionsOf(each).some((a) => a.startsWith('s3:')))) {
      expect([
        arnUnder(filesBucketArn, FILE_KEY_PATTERN),
        arnUnder(filesBucketArn, UPLOAD_KEY_PATTERN),
        filesBucketArn,
        arnUnder(digestBucketArn, LOG_KEY_PATTERN),
        digestBucketArn,
      ]).toContain(json(statement.Resource));
      // Listing the log bucket is limited to the log's own keys.
      if (json(statement.Resource) === digestBucketArn) {
        expect(statement.Condition).toEqual({ StringLike: { 's3:prefix': [LOG_KEY_PATTERN] } });
      }
    }
  });
});

describe('the authorizer', () => {
  it('reads key, session and identity provider items, and counts wallet calls, and nothing else', () => {
    // Prepare
    const roleId = synthesized.logicalIdOf(synthesized.stack.api.authorizerFunction.role!);
    // Act
    const statements = dataStatements(statementsOfRole(template, roleId));
    // Assess
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:GetItem',
        Resource: JSON.parse(tableArn),
        Condition: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [
              API_KEY_ITEM_PARTITIONS,
              WALLET_SESSION_ITEM_PARTITIONS,
              IDENTITY_PROVIDER_PARTITION,
            ],
          },
        },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: JSON.parse(tableArn),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [WALLET_ITEM_PARTITIONS] } },
      },
    ]);
  });
});

/** The ARN of a queue of lib/failed-work.ts, as the template references it. */
const failedWorkQueueArn = (queue: 'queue' | 'jobFailureQueue') => ({
  'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.failedWork[queue]), 'Arn'],
});

describe('the job functions', () => {
  it('lets the sequencer move its state, the outbox and positions, write log files and sign, nothing else', () => {
    // Prepare
    const roleId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction.role!);
    const keyArn = JSON.stringify({
      'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.ledgerLog.signingKey), 'Arn'],
    });
    // Act
    const statements = dataStatements(statementsOfRole(template, roleId));
    // Assess: no event item, no object item, no other key of the bucket (each action on each
    // resource, under its condition: the synthesis may merge statements and sort their actions)
    expect(grantsOf(statements)).toEqual(
      grantsOf([
        {
          Effect: 'Allow',
          Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
          Resource: JSON.parse(tableArn),
          Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SEQUENCER_STATE_PARTITION] } },
        },
        {
          Effect: 'Allow',
          Action: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
          Resource: JSON.parse(tableArn),
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [OUTBOX_PARTITIONS, POSITION_PARTITIONS] },
          },
        },
        {
          Effect: 'Allow',
          Action: 's3:GetObject',
          Resource: JSON.parse(arnUnder(digestBucketArn, LOG_KEY_PATTERN)),
        },
        {
          Effect: 'Allow',
          Action: 's3:ListBucket',
          Resource: JSON.parse(digestBucketArn),
          Condition: { StringLike: { 's3:prefix': [LOG_KEY_PATTERN] } },
        },
        {
          Effect: 'Allow',
          Action: 's3:PutObject',
          Resource: JSON.parse(arnUnder(digestBucketArn, LOG_KEY_PATTERN)),
        },
        { Effect: 'Allow', Action: ['kms:Sign', 'kms:GetPublicKey'], Resource: JSON.parse(keyArn) },
        // Where its trigger puts the batches it gives up on (lib/failed-work.ts).
        { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: failedWorkQueueArn('queue') },
        // The table stream's outbox inserts start it (test/infra/ledger-stack.test.ts).
        { Effect: 'Allow', Action: 'dynamodb:ListStreams', Resource: '*' },
        {
          Effect: 'Allow',
          Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
          Resource: {
            'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.dataStore.table), 'StreamArn'],
          },
        },
      ] as IamStatement[]),
    );
  });

  it.each([
    { job: 'removeSubcategoryData', access: REMOVE_SUBCATEGORY_DATA_ACCESS, startsItself: true },
    { job: 'importObjects', access: IMPORT_OBJECTS_ACCESS, startsItself: true },
    { job: 'exportObjects', access: EXPORT_OBJECTS_ACCESS, startsItself: false },
  ] as const)(
    'lets the $job job do what it declares, and start itself by name: $startsItself',
    ({ job, access, startsItself }) => {
      // Prepare
      const jobFunction = synthesized.stack.backgroundJobs.functions.get(job)!;
      const statements = statementsOfRole(template, synthesized.logicalIdOf(jobFunction.role!));
      const variables = template.toJSON().Resources[synthesized.logicalIdOf(jobFunction)].Properties
        .Environment.Variables as Record<string, unknown>;
      // Act
      const observed = observedAccess(statements);
      const invoke = allows(statements).filter((statement) =>
        actionsOf(statement).includes('lambda:InvokeFunction'),
      );
      // Assess
      expect(sorted(observed.table)).toEqual(sorted(access.table));
      expect(sorted(observed.indexes)).toEqual(sorted(access.indexes));
      expect(sorted(observed.files)).toEqual(sorted(access.files));
      expect(sorted(observed.uploads)).toEqual(sorted(access.uploads));
      expect(observed.listBucket).toBe(false);
      expect([...observed.secrets, ...observed.deliveryQueue]).toEqual([]);
      // The log's tiles: the export job, for an as-of export with proofs.
      expect(sorted(observed.log)).toEqual(sorted(access.log ?? []));
      expect(observed.conditioned).toEqual([]);
      // Lambda hands its invocations given up on to the job-failure queue (lib/failed-work.ts).
      expect(grantsOf(observed.other)).toEqual(
        grantsOf([
          { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: failedWorkQueueArn('jobFailureQueue') },
        ]),
      );
      expect(invoke).toHaveLength(startsItself ? 1 : 0);
      if (startsItself) {
        // Its own name, in its environment and in the ARN it may invoke (no `*`, no other function).
        const name = variables[JOB_FUNCTION_ENVIRONMENT[job]];
        expect(typeof name).toBe('string');
        expect(
          template.toJSON().Resources[synthesized.logicalIdOf(jobFunction)].Properties.FunctionName,
        ).toBe(name);
        expect(json(invoke[0]?.Resource)).toContain(`:function:${name}"`);
        expect(json(invoke[0]?.Resource)).not.toContain('*');
      } else {
        expect(variables).not.toHaveProperty(JOB_FUNCTION_ENVIRONMENT[job]);
      }
    },
  );

  it.each(operationList)(
    'lets $id start exactly the background jobs its row names, without versions or aliases',
    ({ id, backgroundJobs }) => {
      // Prepare
      const jobs = backgroundJobs ?? [];
      const operationFunction = synthesized.stack.api.operationFunctions.get(id)!;
      const variables = template.toJSON().Resources[synthesized.logicalIdOf(operationFunction)].Properties
        .Environment.Variables as Record<string, unknown>;
      // Act
      const invoke = allows(statementsOfRole(template, roleOf(id))).filter((statement) =>
        actionsOf(statement).includes('lambda:InvokeFunction'),
      );
      // Assess
      expect(invoke).toEqual(
        jobs.map((job) => ({
          Effect: 'Allow',
          Action: 'lambda:InvokeFunction',
          Resource: {
            'Fn::GetAtt': [
              synthesized.logicalIdOf(synthesized.stack.backgroundJobs.functions.get(job)!),
              'Arn',
            ],
          },
        })),
      );
      for (const job of jobs) {
        expect(variables[JOB_FUNCTION_ENVIRONMENT[job]]).toEqual({
          Ref: synthesized.logicalIdOf(synthesized.stack.backgroundJobs.functions.get(job)!),
        });
      }
    },
  );

  it('has the subcategory update start the removal job, and the import and export rows theirs', () => {
    // Assess: the rows above are not vacuous.
    const starters = Object.fromEntries(
      operationList.filter((row) => row.backgroundJobs).map((row) => [row.id, row.backgroundJobs]),
    );
    expect(starters).toEqual({
      updateSubcategory: ['removeSubcategoryData'],
      createImport: ['importObjects'],
      startImport: ['importObjects'],
      exportObjects: ['exportObjects'],
    });
  });
});

describe('the indexes the import and export jobs query', () => {
  const documentClient = mockClient(DynamoDBDocumentClient);
  const indexesQueried = (): string[] =>
    documentClient
      .commandCalls(QueryCommand)
      .map((call) => call.args[0].input.IndexName)
      .filter((indexName): indexName is string => indexName !== undefined);

  beforeAll(() => {
    process.env.TABLE_NAME = 'table-under-test';
  });
  beforeEach(() => {
    // Prepare
    documentClient.reset();
    documentClient.on(GetCommand).resolves({});
    documentClient.on(QueryCommand).resolves({ Items: [] });
  });
  afterAll(() => documentClient.restore());

  it('are, for the import, the categories of every status by creation time (gsi3) only', async () => {
    // Act
    await ImportTargets.load(
      { type: 'company', tenantId: 'c', keyId: 'k', permissions: new Set() },
      { createMissing: true, defaults: {} },
    );
    // Assess
    expect(indexesQueried().length).toBeGreaterThan(0);
    expect(sorted(indexesQueried())).toEqual(sorted(IMPORT_OBJECTS_ACCESS.indexes));
  });

  it("are, for the export, the object list's indexes, every one of them for some filter and sort", async () => {
    // Prepare
    const places = [{}, { categoryId: 'k' }, { subcategoryId: 's' }, { categoryId: 'k', subcategoryId: 's' }];
    const pages: unknown[] = [];
    // Act
    for (const sort of ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'] as const) {
      for (const status of ['active', 'inactive', 'all'] as const) {
        for (const place of places) {
          for await (const page of walkObjects('c', { sort, status, ...place })) pages.push(page);
        }
      }
    }
    // Assess
    expect(pages).toEqual([]);
    expect(sorted(indexesQueried())).toEqual(sorted(EXPORT_OBJECTS_ACCESS.indexes));
  });
});

describe('partition patterns of IAM conditions', () => {
  const documentClient = mockClient(DynamoDBDocumentClient);
  const keysSent = (): string[] =>
    documentClient
      .calls()
      .map(
        (call) =>
          call.args[0].input as { Key?: { pk: string }; ExpressionAttributeValues?: { ':pk'?: string } },
      )
      .map((input) => input.Key?.pk ?? input.ExpressionAttributeValues?.[':pk'] ?? '');

  beforeAll(() => {
    process.env.TABLE_NAME = 'table-under-test';
  });
  beforeEach(() => {
    // Prepare
    documentClient.reset();
    documentClient.on(GetCommand).resolves({});
    documentClient.on(QueryCommand).resolves({ Items: [] });
    documentClient.on(UpdateCommand).resolves({ Attributes: { value: 1 } });
  });
  afterAll(() => documentClient.restore());

  it('match the key, session and identity provider items the authorizer reads', async () => {
    // Act
    await findApiKey('0123456789abcdef01234567');
    await findSession('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await findIdentityProvider('https://idp.example.com');
    // Assess
    const [apiKeyPartition, sessionPartition, providerPartition] = keysSent();
    expect(apiKeyPartition).toMatch(likePattern(API_KEY_ITEM_PARTITIONS));
    expect(sessionPartition).toMatch(likePattern(WALLET_SESSION_ITEM_PARTITIONS));
    expect(sessionPartition).not.toMatch(likePattern(API_KEY_ITEM_PARTITIONS));
    expect(providerPartition).toBe(IDENTITY_PROVIDER_PARTITION);
  });

  it('match the state, outbox and position items the sequencer uses', async () => {
    // Act
    await readLogState();
    await readOutbox(1);
    // Assess
    const [state, ...outboxShards] = keysSent();
    expect(state).toBe(SEQUENCER_STATE_PARTITION);
    expect(outboxShards.length).toBeGreaterThan(0);
    for (const partition of outboxShards) expect(partition).toMatch(likePattern(OUTBOX_PARTITIONS));
    const event = { chainId: 'object:c:o', sequence: 1, hash: 'ab', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(String(outboxItem(event).Put?.Item?.pk)).toMatch(likePattern(OUTBOX_PARTITIONS));
    expect(writePositions).toBeDefined();
    expect('LOG_POSITION#object:c:o').toMatch(likePattern(POSITION_PARTITIONS));
  });

  it('match the import files and export results the jobs read and write (staging keys)', () => {
    // Prepare
    const [companyId, id] = ['7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f', '0190f5a2-8b7c-7def-8123-456789abcdef'];
    // Assess
    for (const key of [importSourceKey(companyId, id), exportResultKey(companyId, id)]) {
      expect(key).toMatch(likePattern(UPLOAD_KEY_PATTERN));
      expect(key.startsWith(UPLOAD_STAGING_PREFIX)).toBe(true);
      expect(key).not.toMatch(likePattern(FILE_KEY_PATTERN));
    }
  });

  it('match the file, image and staging keys the file store uses', () => {
    // Prepare
    const [companyId, id] = ['7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f', '0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b'];
    // Assess
    expect(fileStorageKey(companyId, id)).toMatch(likePattern(FILE_KEY_PATTERN));
    expect(subcategoryImageKey(companyId, id, id)).toMatch(likePattern(FILE_KEY_PATTERN));
    expect(uploadStagingKey(companyId, id)).toMatch(likePattern(UPLOAD_KEY_PATTERN));
    expect(uploadStagingKey(companyId, id).startsWith(UPLOAD_STAGING_PREFIX)).toBe(true);
    expect(uploadStagingKey(companyId, id)).not.toMatch(likePattern(FILE_KEY_PATTERN));
  });

  it("match the idempotency layer's records", () => {
    // Act
    const partition = idempotencyPartition('7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f');
    // Assess
    expect(partition).toMatch(likePattern(IDEMPOTENCY_ITEM_PARTITIONS));
    expect('T#7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f#LEDGER#object#x').not.toMatch(
      likePattern(IDEMPOTENCY_ITEM_PARTITIONS),
    );
  });
});
