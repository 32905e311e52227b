/**
 * The witness over its AWS store (`witness/dynamodb-store.ts`) against DynamoDB Local, started
 * here in its own Java process: the integration tier's global setup would also boot every
 * function of the service, which this test does not need. Two witnesses on one table are two
 * Lambda instances: racing from the same size, only one is cosigned, by the conditional write.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localSigner } from '../../lambdas/domain/ledger/log-signer';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { freePort } from '../../local/free-port';
import { dynamoDbWitnessStore, WITNESS_TABLE_PARTITION_KEY } from '../../witness/dynamodb-store';
import { createWitness, type Witness, type WitnessStep } from '../../witness/witness';
import { routeWitnessRequest } from '../../witness/witness-routes';
import { checkCosignature, noteText } from '../support/cosignature-check';
import { type TestLog, testLog, verifiedBarrier } from '../support/witness-log';

jest.setTimeout(120_000);

const TABLE = 'witness-checkpoints';
let dynamoDb: ChildProcess;
let client: DynamoDBClient;
let log: TestLog;
const keyFile = join(mkdtempSync(join(tmpdir(), 'witness-ddb-')), 'witness-key.pem');

beforeAll(async () => {
  const port = await freePort();
  dynamoDb = await startDynamoDbLocal({ port });
  client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
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
