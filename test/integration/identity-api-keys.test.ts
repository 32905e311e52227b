/**
 * Companies, Apps and API keys against DynamoDB Local: issue, resolve, revoke, and what the
 * table holds (only the SHA-256 of a key, never the key).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey, issueApiKey, resolveApiKey, revokeApiKey } from '../../lambdas/domain/identity/api-keys';
import { createApp, createCompany, tenantExists } from '../../lambdas/domain/identity/tenants';
import { findApiKey, listKeyLabels } from '../../lambdas/repositories/identity-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';

/** Every string inside a stored item, at any depth. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof Set) return [...value].flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const readKeyItem = async (keyId: string) =>
  (
    await dynamoDb.send(
      new GetCommand({ TableName: tableName(), Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' } }),
    )
  ).Item;

describe('issueApiKey and resolveApiKey', () => {
  it('resolves an issued key to its principal', async () => {
    // Prepare
    const tenantId = randomUUID();
    // Act
    const { keyId, apiKey } = await issueApiKey('company', tenantId, ['categories:read', 'objects:write']);
    const principal = await resolveApiKey(apiKey);
    // Assess
    expect(principal).toEqual({
      type: 'company',
      tenantId,
      keyId,
      permissions: new Set(['categories:read', 'objects:write']),
    });
  });

  it("stores a key's label and gives it to its principal", async () => {
    // Prepare
    const tenantId = randomUUID();
    // Act
    const { keyId, apiKey } = await issueApiKey('company', tenantId, ['objects:read'], 'Auditor (Jane Roe)');
    const principal = await resolveApiKey(apiKey);
    // Assess
    expect(principal?.keyLabel).toBe('Auditor (Jane Roe)');
    expect((await findApiKey(keyId))?.label).toBe('Auditor (Jane Roe)');
    expect(await listKeyLabels(tenantId)).toEqual([{ keyId, label: 'Auditor (Jane Roe)' }]);
  });

  it('resolves an App key to an App principal', async () => {
    // Prepare
    const appId = randomUUID();
    // Act
    const { apiKey } = await issueApiKey('app', appId, ['wallets:read']);
    const principal = await resolveApiKey(apiKey);
    // Assess
    expect(principal?.type).toBe('app');
    expect(principal?.tenantId).toBe(appId);
    expect([...(principal?.permissions ?? [])]).toEqual(['wallets:read']);
  });

  it('resolves nothing for a valid key id with a wrong secret', async () => {
    // Prepare
    const { keyId, apiKey } = await issueApiKey('company', randomUUID(), COMPANY_PERMISSIONS);
    const lastCharacter = apiKey.at(-1) === 'A' ? 'B' : 'A';
    const forged = `${apiKey.slice(0, -1)}${lastCharacter}`;
    // Act
    const principal = await resolveApiKey(forged);
    // Assess
    expect(forged.slice(4, 28)).toBe(keyId);
    expect(principal).toBeUndefined();
  });

  it('resolves nothing for a well-formed key that was never issued', async () => {
    // Act
    const principal = await resolveApiKey(`ark_${'0'.repeat(24)}_${'a'.repeat(43)}`);
    // Assess
    expect(principal).toBeUndefined();
  });

  it('resolves nothing for a malformed key', async () => {
    // Act / Assess
    expect(await resolveApiKey('')).toBeUndefined();
    expect(await resolveApiKey('not-a-key')).toBeUndefined();
  });

  it('resolves nothing for a revoked key, and other keys of the tenant keep working', async () => {
    // Prepare
    const tenantId = randomUUID();
    const revoked = await issueApiKey('company', tenantId, COMPANY_PERMISSIONS);
    const kept = await issueApiKey('company', tenantId, COMPANY_PERMISSIONS);
    // Act
    const wasRevoked = await revokeApiKey(revoked.keyId);
    // Assess
    expect(wasRevoked).toBe(true);
    expect(await resolveApiKey(revoked.apiKey)).toBeUndefined();
    expect((await resolveApiKey(kept.apiKey))?.keyId).toBe(kept.keyId);
  });

  it('keeps the revoked key item, with the first revocation time, for audit', async () => {
    // Prepare
    const { keyId } = await issueApiKey('company', randomUUID(), COMPANY_PERMISSIONS);
    await revokeApiKey(keyId);
    const firstRevokedAt = (await findApiKey(keyId))?.revokedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Act
    const again = await revokeApiKey(keyId);
    // Assess
    expect(again).toBe(true);
    expect(firstRevokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await findApiKey(keyId))?.revokedAt).toBe(firstRevokedAt);
  });

  it('returns false when revoking a key id that does not exist, and creates no item', async () => {
    // Prepare
    const keyId = 'f'.repeat(24);
    // Act
    const revoked = await revokeApiKey(keyId);
    // Assess
    expect(revoked).toBe(false);
    expect(await readKeyItem(keyId)).toBeUndefined();
  });
});

describe('the stored key item', () => {
  it('holds the SHA-256 of the key and neither the key nor its secret', async () => {
    // Prepare
    const tenantId = randomUUID();
    // Act
    const { keyId, apiKey } = await issueApiKey('company', tenantId, ['categories:read']);
    const item = await readKeyItem(keyId);
    // Assess
    const secret = apiKey.slice(29);
    expect(item).toEqual({
      pk: `APIKEY#${keyId}`,
      sk: 'APIKEY',
      entity: 'apiKey',
      keyId,
      secretHash: hashApiKey(apiKey),
      principalType: 'company',
      tenantId,
      permissions: ['categories:read'],
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    for (const value of stringsIn(item)) {
      expect(value).not.toContain(apiKey);
      expect(value).not.toContain(secret);
    }
  });
});

describe('createCompany and createApp', () => {
  it('creates a company with a key holding every company permission', async () => {
    // Act
    const { tenantId, keyId, apiKey } = await createCompany('Acme');
    const principal = await resolveApiKey(apiKey);
    // Assess
    expect(await tenantExists('company', tenantId)).toBe(true);
    expect(await tenantExists('app', tenantId)).toBe(false);
    expect(principal).toEqual({
      type: 'company',
      tenantId,
      keyId,
      permissions: new Set(COMPANY_PERMISSIONS),
    });
  });

  it('creates an App with a key holding the wallet permissions', async () => {
    // Act
    const { tenantId, apiKey } = await createApp('Scanner');
    const principal = await resolveApiKey(apiKey);
    // Assess
    expect(await tenantExists('app', tenantId)).toBe(true);
    expect(await tenantExists('company', tenantId)).toBe(false);
    expect(principal?.type).toBe('app');
    expect(principal?.permissions).toEqual(new Set(APP_PERMISSIONS));
  });

  it('knows no tenant for a random id', async () => {
    // Act / Assess
    expect(await tenantExists('company', randomUUID())).toBe(false);
  });
});
