/**
 * The key declarations (`lambdas/repositories/table-keys.ts`) give exactly the keys that stored
 * items carry: the expected strings below are the formats items were written with before the
 * declarations existed, so existing tables still read. Offline: no network, no DynamoDB.
 */
import { defineKeys } from '../../lambdas/repositories/entity-keys';
import * as keys from '../../lambdas/repositories/table-keys';

const C = 'c0';
const ID = 'i1';

describe('table keys', () => {
  it.each([
    ['tenant', keys.tenantKeys.key({ tenantId: C, kind: 'COMPANY' }), { pk: 'T#c0', sk: 'COMPANY' }],
    ['counters', keys.tenantCountersKeys.key({ tenantId: C }), { pk: 'T#c0', sk: 'COUNTERS' }],
    ['jobSlots', keys.jobSlotsKeys.key({ tenantId: C }), { pk: 'T#c0', sk: 'JOB_SLOTS' }],
    ['apiKey', keys.apiKeyKeys.key({ keyId: 'k' }), { pk: 'APIKEY#k', sk: 'APIKEY' }],
    [
      'idempotency',
      keys.idempotencyKeys.key({ tenantId: C, operationId: 'createObject', key: 'x' }),
      { pk: 'T#c0#IDEMPOTENCY', sk: 'createObject#x' },
    ],
    [
      'category',
      keys.categoryKeys.key({ companyId: C, categoryId: ID }),
      { pk: 'T#c0#CATEGORY#i1', sk: 'CATEGORY' },
    ],
    [
      'categoryNameMarker',
      keys.categoryNameMarkerKeys.key({ companyId: C, nameKey: 'tools' }),
      { pk: 'T#c0#CATEGORY_NAME#tools', sk: 'MARKER' },
    ],
    [
      'subcategory',
      keys.subcategoryKeys.key({ companyId: C, categoryId: 'k1', id: ID }),
      { pk: 'T#c0#CATEGORY#k1', sk: 'SUBCATEGORY#i1' },
    ],
    [
      'subcategoryNameMarker',
      keys.subcategoryNameMarkerKeys.key({ companyId: C, categoryId: 'k1', nameKey: 'drills' }),
      { pk: 'T#c0#CATEGORY#k1', sk: 'SUBCATEGORY_NAME#drills' },
    ],
    [
      'subcategoryFile',
      keys.subcategoryFileKeys.key({ companyId: C, categoryId: 'k1', subcategoryId: 's1', id: 'f1' }),
      { pk: 'T#c0#CATEGORY#k1', sk: 'SUBCATEGORY_FILE#s1#f1' },
    ],
    ['object', keys.objectKeys.key({ companyId: C, id: ID }), { pk: 'T#c0#OBJECT#i1', sk: 'OBJECT' }],
    [
      'externalIdMarker',
      keys.externalIdMarkerKeys.key({ companyId: C, externalId: 'E-1' }),
      { pk: 'T#c0#EXTERNAL_ID#E-1', sk: 'MARKER' },
    ],
    ['file', keys.fileKeys.key({ companyId: C, id: ID }), { pk: 'T#c0#FILE#i1', sk: 'FILE' }],
    [
      'uploadSession',
      keys.uploadSessionKeys.key({ companyId: C, id: ID }),
      { pk: 'T#c0#UPLOAD#i1', sk: 'UPLOAD' },
    ],
    ['import', keys.importJobKeys.key({ companyId: C, id: ID }), { pk: 'T#c0#IMPORTS', sk: 'IMPORT#i1' }],
    [
      'importRow',
      keys.importRowKeys.key({ companyId: C, importId: ID, rowIndex: '000000007' }),
      { pk: 'T#c0#IMPORT#i1', sk: 'DONE#000000007' },
    ],
    [
      'importError',
      keys.importErrorKeys.key({ companyId: C, importId: ID, rowIndex: '000000007', issue: '03' }),
      { pk: 'T#c0#IMPORT#i1', sk: 'ERROR#000000007#03' },
    ],
    ['export', keys.exportJobKeys.key({ companyId: C, id: ID }), { pk: 'T#c0#EXPORTS', sk: 'EXPORT#i1' }],
    ['wallet', keys.walletKeys.key({ appId: 'a0', id: ID }), { pk: 'T#a0#WALLET#i1', sk: 'WALLET' }],
    [
      'walletUsernameMarker',
      keys.walletUsernameMarkerKeys.key({ appId: 'a0', usernameKey: 'ann' }),
      { pk: 'T#a0#WALLET_USERNAME#ann', sk: 'MARKER' },
    ],
    [
      'loginThrottle',
      keys.loginThrottleKeys.key({ appId: 'a0', usernameKey: 'ann', addressHash: 'h' }),
      { pk: 'T#a0#LOGIN_THROTTLE#ann', sk: 'ADDRESS#h' },
    ],
    [
      'walletSession',
      keys.walletSessionKeys.key({ tokenHash: 'h' }),
      { pk: 'WALLET_SESSION#h', sk: 'SESSION' },
    ],
    ['webhook', keys.webhookKeys.key({ companyId: C, id: ID }), { pk: 'T#c0#WEBHOOKS', sk: 'WEBHOOK#i1' }],
    [
      'webhookDelivery',
      keys.deliveryKeys.key({ companyId: C, webhookId: 'w1', id: 'd1' }),
      { pk: 'T#c0#WEBHOOK#w1', sk: 'DELIVERY#d1' },
    ],
    [
      'localQueueMessage',
      keys.localQueueMessageKeys.key({
        companyId: C,
        lane: 'w1%230',
        sentAt: 't',
        counter: '000001',
        deduplicationId: 'd',
      }),
      { pk: 'LOCAL#DELIVERY_QUEUE#c0', sk: 'w1%230 t#000001#d' },
    ],
    [
      'localQueueCompany',
      keys.localQueueCompanyKeys.key({ companyId: C }),
      { pk: 'LOCAL#DELIVERY_QUEUE', sk: 'COMPANY#c0' },
    ],
    [
      'ledgerEvent',
      keys.ledgerEventKeys.key({ tenantId: C, kind: 'object', entityId: ID, sequence: '0000000001' }),
      { pk: 'T#c0#LEDGER#object#i1', sk: 'EVENT#0000000001' },
    ],
    [
      'ledgerHead',
      keys.ledgerHeadKeys.key({ shard: '3', chainId: 'object:c0:i1' }),
      { pk: 'LEDGER_HEADS#3', sk: 'object:c0:i1' },
    ],
    [
      'logOutbox',
      keys.logOutboxKeys.key({
        shard: '2',
        tenantId: 'c0',
        timestamp: 't',
        chainId: 'object:c0:i1',
        sequence: '0000000001',
      }),
      { pk: 'LOG_OUTBOX#2', sk: 'c0#t#object:c0:i1#0000000001' },
    ],
    ['logState', keys.logStateKeys.key({}), { pk: 'LOG', sk: 'STATE' }],
    [
      'logPosition',
      keys.logPositionKeys.key({ chainId: 'object:c0:i1', sequence: '0000000001' }),
      { pk: 'LOG_POSITION#object:c0:i1', sk: 'EVENT#0000000001' },
    ],
  ])('%s: the stored table key', (_name, built, expected) => {
    expect(built).toEqual(expected);
  });

  it('writes the index attributes of the status-sorted lists as items always carried them', () => {
    // Act
    const attributes = keys.objectKeys.indexKeys({
      companyId: C,
      id: ID,
      createdAt: '2026-01-01T00:00:00.000Z',
      statusBucket: 'active',
      nameKey: 'drill\u0000i1',
      subcategoryId: 's1',
      categoryId: 'k1',
    });

    // Assess
    expect(attributes).toEqual({
      gsi1pk: 'T#c0#OBJECTS#active',
      gsi1sk: '2026-01-01T00:00:00.000Z#i1',
      gsi2pk: 'T#c0#OBJECTS#active',
      gsi2sk: 'drill\u0000i1',
      gsi3pk: 'T#c0#OBJECTS',
      gsi3sk: '2026-01-01T00:00:00.000Z#i1',
      gsi4pk: 'T#c0#OBJECTS',
      gsi4sk: 'drill\u0000i1',
      gsi5pk: 'T#c0#SUBCATEGORY#s1#OBJECTS',
      gsi5sk: '2026-01-01T00:00:00.000Z#i1',
      gsi6pk: 'T#c0#CATEGORY#k1#OBJECTS',
      gsi6sk: '2026-01-01T00:00:00.000Z#i1',
    });
  });

  it('writes only the indexes asked for (a delivery enters the dead letters only when failed)', () => {
    const values = { companyId: C, webhookId: 'w1', createdAt: 't', sequence: '0000000002', id: 'd1' };
    expect(keys.deliveryKeys.indexKeys(values, ['gsi1'])).toEqual({
      gsi1pk: 'T#c0#WEBHOOK#w1#DELIVERIES',
      gsi1sk: 't#0000000002#d1',
    });
    expect(keys.deliveryKeys.indexKeys(values)).toMatchObject({ gsi2pk: 'T#c0#WEBHOOK#w1#DEAD' });
  });

  it('gives the partitions that IAM conditions name with a wildcard', () => {
    expect(keys.walletKeys.partition({ appId: '*', id: '*' })).toBe('T#*#WALLET#*');
    expect(keys.ledgerEventKeys.partitionPrefix({ tenantId: '*' })).toBe('T#*#LEDGER#');
    expect(keys.logOutboxKeys.partition({ shard: '' })).toBe('LOG_OUTBOX#');
    expect(keys.logStateKeys.partition({})).toBe('LOG');
  });
});

describe('defineKeys', () => {
  const noteKeys = defineKeys({
    entity: 'note',
    table: { pk: 'T#{companyId}#NOTES', sk: 'NOTE#{folderId}#{id}' },
  });

  it('gives a sort key prefix up to the first part not given', () => {
    expect(noteKeys.sortKeyPrefix()).toBe('NOTE#');
    expect(noteKeys.sortKeyPrefix({ folderId: 'f' })).toBe('NOTE#f#');
    expect(noteKeys.sortKeyPrefix({ folderId: 'f', id: 'n' })).toBe('NOTE#f#n');
  });

  it('refuses a key with a part missing, rather than writing "undefined" into it', () => {
    expect(() => noteKeys.key({ companyId: 'c' } as never)).toThrow('no value for {folderId}');
  });
});
