/**
 * The witness as deployed: its Lambda handler, bundled as the stack bundles it
 * (`lib/function-bundling.ts`), given function URL events, with DynamoDB Local as its table and
 * the local KMS emulator (`local/emulators/kms-emulator.ts`) behind a KMS endpoint for its key;
 * and `npm run witness -- --print-kms-key`, which prints a deployed witness's verifier key.
 * And the witness over its AWS store (`witness/dynamodb-store.ts`) against DynamoDB Local, started
 * here in its own Java process: the integration tier's global setup would also boot every
 * function of the service, which this test does not need. Two witnesses on one table are two
 * Lambda instances: racing from the same size, only one is cosigned, by the conditional write.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { kmsSigner, localSigner } from '../../lambdas/domain/ledger/log-signer';
import { functionBuildOptions } from '../../lib/function-bundling';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { kmsEmulator } from '../../local/emulators/kms-emulator';
import { freePort } from '../../local/free-port';
import { formatCosignerKey } from '../../verifier/index';
import { dynamoDbWitnessStore, WITNESS_TABLE_PARTITION_KEY } from '../../witness/dynamodb-store';
import { createWitness, type Witness, type WitnessStep } from '../../witness/witness';
import { WITNESS_ENVIRONMENT } from '../../witness/witness-environment';
import { routeWitnessRequest } from '../../witness/witness-routes';
import { checkCosignature, noteText } from '../support/cosignature-check';
import { type TestLog, testLog, verifiedBarrier } from '../support/witness-log';

jest.setTimeout(120_000);

const TABLE = 'witness-checkpoints';
let dynamoDb: ChildProcess;
let dynamoDbUrl: string;
let client: DynamoDBClient;
let log: TestLog;
const keyFile = join(mkdtempSync(join(tmpdir(), 'witness-ddb-')), 'witness-key.pem');

beforeAll(async () => {
  const port = await freePort();
  dynamoDb = await startDynamoDbLocal({ port });
  dynamoDbUrl = `http://127.0.0.1:${port}`;
  client = new DynamoDBClient({
    endpoint: dynamoDbUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: WITNESS_TABLE_PARTITION_KEY, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: WITNESS_TABLE_PARTITION_KEY, KeyType: 'HASH' }],
    }),
  );
  log = await testLog('log.example/dynamodb');
});
afterAll(() => {
  client?.destroy();
  dynamoDb?.kill();
});

/** A witness instance on the shared table, with the one witness key (as every Lambda instance). */
const instance = (afterStep?: (step: WitnessStep) => Promise<void>): Promise<Witness> =>
  createWitness({
    signer: localSigner('witness.example/aws', keyFile),
    logs: [log.verifierKey],
    store: dynamoDbWitnessStore(TABLE, client),
    afterStep,
  });

const post = (witness: Witness, body: string) =>
  routeWitnessRequest(witness, { method: 'POST', path: '/add-checkpoint', body });

/** Serves the local KMS emulator on loopback, as `AWS_ENDPOINT_URL_KMS` for the SDK. */
async function startKms(): Promise<{ url: string; close(): void }> {
  const emulate = kmsEmulator({
    region: 'us-east-1',
    accountId: '123456789012',
    directory: mkdtempSync(join(tmpdir(), 'witness-kms-')),
  });
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await emulate({
      method: request.method ?? 'POST',
      path: request.url ?? '/',
      query: {},
      headers: request.headers,
      body: Buffer.concat(chunks),
      functionName: undefined,
    });
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

const kmsClientOf = (endpoint: string) =>
  new KMSClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** A function URL event (payload format 2.0) as Lambda gives it. */
const functionUrlEvent = (method: string, rawPath: string, body: string, isBase64Encoded = false) =>
  ({
    rawPath,
    body: isBase64Encoded ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded,
    requestContext: { http: { method } },
  }) as unknown as APIGatewayProxyEventV2;

describe('the bundled Lambda handler', () => {
  it('cosigns with its KMS key, stores in its table, and answers 409 and the monitor GET', async () => {
    // Prepare: the bundle, its environment as the stack sets it, a KMS endpoint
    const kms = await startKms();
    const bundleDirectory = mkdtempSync(join(tmpdir(), 'witness-bundle-'));
    await build(
      functionBuildOptions(join(__dirname, '..', '..', 'witness', 'lambda-handler.ts'), bundleDirectory),
    );
    const handlerLog = await testLog('log.example/lambda');
    const saved = { ...process.env };
    Object.assign(process.env, {
      [WITNESS_ENVIRONMENT.tableName]: TABLE,
      [WITNESS_ENVIRONMENT.keyId]: '11111111-2222-3333-4444-555555555555',
      [WITNESS_ENVIRONMENT.name]: 'witness.example/lambda',
      [WITNESS_ENVIRONMENT.logs]: handlerLog.verifierKey,
      AWS_ENDPOINT_URL_KMS: kms.url,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoDbUrl,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    try {
      const { handler } = require(
        join(bundleDirectory, 'index.js'),
      ) as typeof import('../../witness/lambda-handler');
      const checkpoint = await handlerLog.checkpoint(7);
      const logged = jest.spyOn(console, 'log').mockImplementation(() => {});
      // Act
      const cosigned = await handler(
        functionUrlEvent('POST', '/add-checkpoint', `old 0\n\n${checkpoint}`, true),
      );
      const stale = await handler(functionUrlEvent('POST', '/add-checkpoint', await handlerLog.body(0, 9)));
      const originHash = createHash('sha256').update(handlerLog.signer.keyName).digest('hex');
      const served = await handler(functionUrlEvent('GET', `/${originHash}/checkpoint`, ''));
      // Assess
      expect(cosigned.statusCode).toBe(200);
      const kmsKey = await kmsSigner(
        'witness.example/lambda',
        process.env[WITNESS_ENVIRONMENT.keyId]!,
      ).publicKey();
      const verifierKey = await formatCosignerKey('witness.example/lambda', kmsKey);
      checkCosignature(verifierKey, noteText(checkpoint), cosigned.body as string);
      expect(stale).toMatchObject({
        statusCode: 409,
        body: '7\n',
        headers: { 'content-type': 'text/x.tlog.size' },
      });
      expect(served.statusCode).toBe(200);
      // The function logs its verifier key once, at its first request.
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(verifierKey));
      logged.mockRestore();
      expect((served.body as string).startsWith(noteText(checkpoint))).toBe(true);
    } finally {
      process.env = saved;
      kms.close();
    }
  });
});

describe('npm run witness -- --print-kms-key', () => {
  it("prints the deployed witness's verifier key from its KMS key", async () => {
    // Prepare
    const kms = await startKms();
    const keyId = '99999999-2222-3333-4444-555555555555';
    try {
      // Act: a child process, so that this process's KMS endpoint keeps answering meanwhile
      const child = spawn(
        'npm',
        ['run', '--silent', 'witness', '--', '--print-kms-key', keyId, '--name', 'auditor.example/aws'],
        {
          cwd: join(__dirname, '..', '..'),
          env: {
            ...process.env,
            AWS_ENDPOINT_URL_KMS: kms.url,
            AWS_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'local',
            AWS_SECRET_ACCESS_KEY: 'local',
          },
        },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      // Assess: the key KMS signs with, under that name
      const kmsKey = await kmsSigner('auditor.example/aws', keyId, kmsClientOf(kms.url)).publicKey();
      expect(code).toBe(0);
      expect(stdout).toBe(`${await formatCosignerKey('auditor.example/aws', kmsKey)}\n`);
    } finally {
      kms.close();
    }
  });
});

describe('the witness on DynamoDB', () => {
  it('cosigns, answers 409 with the stored size, 422 on a fork, and serves the stored note', async () => {
    // Prepare
    const witness = await instance();
    // Act
    const first = await post(witness, await log.body(0, 5));
    const second = await post(witness, await log.body(5, 12));
    const stale = await post(witness, await log.body(5, 13));
    const fork = await post(witness, await log.fork(8).body(12, 12));
    // Assess
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    checkCosignature(witness.verifierKey, noteText(await log.checkpoint(12)), second.body);
    expect(stale).toMatchObject({
      status: 409,
      body: '12\n',
      headers: { 'content-type': 'text/x.tlog.size' },
    });
    expect(fork.status).toBe(422);
    const served = await witness.latestCheckpoint(
      createHash('sha256').update(log.signer.keyName).digest('hex'),
    );
    expect(served.startsWith(noteText(await log.checkpoint(12)))).toBe(true);
    checkCosignature(witness.verifierKey, noteText(served), served.slice(noteText(served).length + 1));
  });

  it('lets one of two instances racing from the same size cosign; the other gets 409', async () => {
    // Prepare: both instances pass every check against size 12 before either writes
    const barrier = verifiedBarrier();
    const [one, two] = await Promise.all([instance(barrier.afterStep), instance(barrier.afterStep)]);
    barrier.arm();
    // Act
    const responses = await Promise.all([
      post(one, await log.body(12, 20)),
      post(two, await log.fork(14).body(12, 20)),
    ]);
    // Assess
    expect(barrier.arrived()).toBe(2);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)?.body).toBe('20\n');
  });
});
