/** The admin CLI's usage plans in local mode: keys start on the default plan; set-plan moves them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type LocalServer, readStackStateFile, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(180_000);

describe('admin CLI usage plans (local mode)', () => {
  let server: LocalServer;
  let dataDirectory: string;
  let table: {
    read(keyId: string): Promise<Record<string, unknown> | undefined>;
    readApp(appId: string): Promise<Record<string, unknown> | undefined>;
    close(): void;
  };

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-plans-'));
    server = await startLocalServer({ dataDirectory });
    const environment = readStackStateFile(dataDirectory)?.environment ?? {};
    const client = new DynamoDBClient({
      endpoint: environment.LOCAL_DYNAMODB_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const documents = DynamoDBDocumentClient.from(client);
    table = {
      read: async (keyId) =>
        (
          await documents.send(
            new GetCommand({
              TableName: environment.TABLE_NAME,
              Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' },
            }),
          )
        ).Item,
      readApp: async (appId) =>
        (
          await documents.send(
            new GetCommand({ TableName: environment.TABLE_NAME, Key: { pk: `T#${appId}`, sk: 'APP' } }),
          )
        ).Item,
      close: () => client.destroy(),
    };
  });

  afterAll(async () => {
    table?.close();
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  const settings = () => ({ port: server.port, dataDirectory });

  it('puts new keys on the default plan and moves a key with set-plan', async () => {
    // Prepare
    const company = JSON.parse((await runAdmin(['create-company', '--name', 'Plans'], settings())).stdout);
    const key = JSON.parse(
      (
        await runAdmin(
          ['create-key', '--company', company.companyId, '--permissions', 'categories:read'],
          settings(),
        )
      ).stdout,
    );
    // Act
    const moved = await runAdmin(['set-plan', '--key-id', key.keyId, '--plan', 'high'], settings());
    // Assess
    expect(moved.exitCode).toBe(0);
    expect(JSON.parse(moved.stdout)).toEqual({ keyId: key.keyId, plan: 'high' });
    expect((await table.read(key.keyId))?.usagePlan).toBe('high');
    const firstKeyId = company.apiKey.split('_')[1];
    expect((await table.read(firstKeyId))?.usagePlan).toBe('default');
  });

  it("puts a new App's wallets on the default plan and moves them with set-wallet-plan", async () => {
    // Prepare
    const app = JSON.parse((await runAdmin(['create-app', '--name', 'Wallet plans'], settings())).stdout);
    const before = (await table.readApp(app.appId))?.walletUsagePlan;
    // Act
    const moved = await runAdmin(['set-wallet-plan', '--app', app.appId, '--plan', 'high'], settings());
    const unknownApp = await runAdmin(
      ['set-wallet-plan', '--app', '0f0e0d0c-0b0a-4909-8807-060504030201', '--plan', 'high'],
      settings(),
    );
    // Assess
    expect(before).toBe('default');
    expect(moved.exitCode).toBe(0);
    expect(JSON.parse(moved.stdout)).toEqual({ appId: app.appId, walletPlan: 'high' });
    expect((await table.readApp(app.appId))?.walletUsagePlan).toBe('high');
    expect(unknownApp.exitCode).toBe(1);
    expect(unknownApp.stdout).toBe('');
  });

  it('refuses an unknown plan (exit 2) and an unknown key (exit 1), printing nothing on stdout', async () => {
    const badPlan = await runAdmin(['set-plan', '--key-id', 'abc', '--plan', 'gold'], settings());
    const badKey = await runAdmin(['set-plan', '--key-id', '0'.repeat(24), '--plan', 'high'], settings());
    expect(badPlan.exitCode).toBe(2);
    expect(badPlan.stdout).toBe('');
    expect(badKey.exitCode).toBe(1);
    expect(badKey.stdout).toBe('');
  });
});
