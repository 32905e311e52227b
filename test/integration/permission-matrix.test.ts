/**
 * The permission matrix: every operation of the table (and every import and removal path), called
 * through its function with a key of each single permission, of each kind, and with exactly the
 * permissions it needs. The expected response comes from the rows (`permission`, and the
 * `conditionalPermissions` of the conditions each request meets: `permissionsNeeded`), so that a
 * handler that forgets a check fails here. Rules: docs/api-decisions.md, "API keys and authorization".
 * A person of each role (and one whose roles claim maps to no role) calls every operation too,
 * with the principal the real authorizer makes of a test provider's token; what a role may do
 * comes from `ROLES` (its permissions, `auditTrail` against the rows marked so, and
 * `managesAccess` against the rows marked `accessManagement`, which every API key is refused).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { issueApiKey } from '../../lambdas/domain/identity/api-keys';
import { registerIdentityProvider } from '../../lambdas/domain/identity/identity-providers';
import { type KeyedOperation, keyedOperation, permissionsNeeded } from '../../lambdas/operation-row';
import { type OperationId, operationList, operations } from '../../lambdas/operations';
import { findImportJob, insertImportJob } from '../../lambdas/repositories/import-repository';
import {
  APP_PERMISSIONS,
  COMPANY_PERMISSIONS,
  type Permission,
  type Principal,
  type PrincipalType,
} from '../../lambdas/shared/principal';
import { ROLE_NAMES, ROLES } from '../../lambdas/shared/roles';
import { type EventOptions, lambdaContext, proxyEvent } from '../support/api-events';
import { settleBackgroundJobs } from '../support/background-jobs';
import { deleteFile, download, uploadSample, uploadSampleOk } from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { getImport, postImportFile, postImportJson, startImport } from '../support/import-requests';
import { getObject, listAllObjects } from '../support/object-requests';
import { personPrincipalOf, registerTestProvider } from '../support/person-principals';
import { appPrincipal, companyPrincipal } from '../support/principals';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/test-identity-provider';
import { createWebhookOk } from '../support/webhook-requests';

jest.setTimeout(120_000);

type Response = { statusCode: number; body: { code?: string; error?: string } | undefined };
type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const COMPANY_ID = randomUUID();
const APP_ID = randomUUID();
/** Every permission of each kind of key: the fixtures' keys. */
const companyAdmin = companyPrincipal(COMPANY_PERMISSIONS, COMPANY_ID);
const appAdmin = appPrincipal(APP_PERMISSIONS, APP_ID);

/** A key of the kind with exactly these permissions (in the one company, or the one App). */
const keyOf = (type: PrincipalType, permissions: readonly Permission[]): Principal =>
  type === 'company' ? companyPrincipal(permissions, COMPANY_ID) : appPrincipal(permissions, APP_ID);

/** One key per single permission, of each kind: every permission a key of that kind can hold. */
const SINGLE_KEYS: ReadonlyArray<{ type: PrincipalType; permissions: readonly Permission[] }> = [
  ...COMPANY_PERMISSIONS.map((permission) => ({ type: 'company' as const, permissions: [permission] })),
  ...APP_PERMISSIONS.map((permission) => ({ type: 'app' as const, permissions: [permission] })),
];

/** Calls an operation's function, the request built from its row's path template. */
async function call(
  operationId: OperationId,
  principal: Principal,
  parts: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): Promise<Response> {
  const row = operations[operationId];
  // The integration tier maps a handler's source to its function's bundle.
  const { handler } = require(`../../lambdas/handlers/${row.handler}`) as { handler: Handler };
  const pathParameters = parts.path ?? {};
  const path = row.path.replace(/\{(\w+)\+?\}/g, (_whole, name: string) => pathParameters[name] ?? '');
  const options: EventOptions = {
    method: row.method,
    path,
    resource: row.path,
    principal,
    pathParameters: parts.path,
    query: parts.query,
    body: parts.body,
  };
  const result = await handler(proxyEvent(options), lambdaContext);
  const json = result.body && !result.isBase64Encoded ? safeJson(result.body) : undefined;
  return { statusCode: result.statusCode, body: json };
}

const safeJson = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const csv = (rows: string[][]) => `${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;

/** What the fixtures of the one company and the one App are. */
interface Fixtures {
  categoryId: string;
  subcategoryId: string;
  objectId: string;
  fileId: string;
  webhookId: string;
  walletId: string;
  importId: string;
  exportId: string;
  /** Targets that refused keys are sent to: a refusal leaves them as they are. */
  spare: {
    place: { categoryId: string; subcategoryId: string };
    filledPlace: { categoryId: string; subcategoryId: string };
    fileId: string;
    webhookId: string;
    walletId: string;
    pendingImportId: string;
    pendingCreateMissingImportId: string;
    keyId: string;
    issuer: string;
  };
}

/**
 * One request of the matrix: an operation, the conditions of its row that the request meets, and
 * how to send it. A request that removes or moves a thing is given `fresh`, true for a key that
 * should pass: it makes its own target then, with the admin key, so that each allowed key meets
 * the same state; a key that should be refused is sent to a spare target, which a handler that
 * forgot its check would change (and the matrix would show a response that is not a 403).
 */
interface MatrixCase {
  name: string;
  operation: OperationId;
  conditions?: readonly string[];
  send: (principal: Principal, fixtures: Fixtures, fresh: boolean) => Promise<Response>;
  /** The responses that show an allowed request passed, when not the row's success status. */
  allowedStatuses?: readonly number[];
}

const subcategoryPath = (place: { categoryId: string; subcategoryId: string }) => ({
  companyId: COMPANY_ID,
  categoryId: place.categoryId,
  subcategoryId: place.subcategoryId,
});

/** A subcategory holding an object with a file: what a REMOVE deletes. */
async function givenFilledSubcategory() {
  const place = await givenSubcategoryPath(companyAdmin);
  const object = await givenObject(companyAdmin, place);
  const file = await uploadSampleOk(companyAdmin, object.id, sample('photo.png'));
  return { place, objectId: object.id as string, fileId: file.id };
}

/** The conditions of a webhook that receives every kind of event. */
const EVERY_KIND_OF_EVENT = ['objectEvents', 'fileEvents', 'subcategoryEvents'] as const;

const CASES: readonly MatrixCase[] = [
  // Categories
  { name: 'list categories', operation: 'listCategories', send: (key) => call('listCategories', key) },
  {
    name: 'create a category',
    operation: 'createCategory',
    send: (key) => call('createCategory', key, { body: { name: `Matrix ${randomUUID()}` } }),
  },
  {
    name: 'get a category',
    operation: 'getCategory',
    send: (key, fx) => call('getCategory', key, { path: { categoryId: fx.categoryId } }),
  },
  {
    name: 'update a category',
    operation: 'updateCategory',
    send: (key, fx) =>
      call('updateCategory', key, { path: { categoryId: fx.categoryId }, body: { description: 'Changed' } }),
  },
  // Subcategories, with every action
  {
    name: 'create a subcategory',
    operation: 'createSubcategory',
    send: (key, fx) =>
      call('createSubcategory', key, {
        path: { categoryId: fx.categoryId },
        body: { name: `S ${randomUUID()}` },
      }),
  },
  {
    name: 'get a subcategory',
    operation: 'getSubcategory',
    send: (key, fx) => call('getSubcategory', key, { path: subcategoryPath(fx) }),
  },
  {
    name: 'update a subcategory: CHANGE',
    operation: 'updateSubcategory',
    send: (key, fx) =>
      call('updateSubcategory', key, { path: subcategoryPath(fx), body: { description: 'Changed' } }),
  },
  {
    name: 'update a subcategory: DEACTIVATE, then ACTIVATE',
    operation: 'updateSubcategory',
    send: async (key, fx, fresh) => {
      const place = fresh ? await givenSubcategoryPath(companyAdmin) : fx.spare.place;
      const deactivated = await call('updateSubcategory', key, {
        path: subcategoryPath(place),
        body: { action: 'DEACTIVATE' },
      });
      if (deactivated.statusCode !== 200) return deactivated;
      return call('updateSubcategory', key, { path: subcategoryPath(place), body: { action: 'ACTIVATE' } });
    },
  },
  {
    name: 'update a subcategory: REMOVE of one with an object and a file',
    operation: 'updateSubcategory',
    conditions: ['remove'],
    send: async (key, fx, fresh) => {
      const place = fresh ? (await givenFilledSubcategory()).place : fx.spare.filledPlace;
      return call('updateSubcategory', key, { path: subcategoryPath(place), body: { action: 'REMOVE' } });
    },
  },
  {
    name: 'update a subcategory: remove (lower case) of an empty one',
    operation: 'updateSubcategory',
    conditions: ['remove'],
    send: async (key, fx, fresh) => {
      const place = fresh ? await givenSubcategoryPath(companyAdmin) : fx.spare.place;
      return call('updateSubcategory', key, { path: subcategoryPath(place), body: { action: 'remove' } });
    },
  },
  // Objects
  { name: 'list objects', operation: 'listObjects', send: (key) => call('listObjects', key) },
  {
    name: "list a subcategory's objects",
    operation: 'listSubcategoryObjects',
    send: (key, fx) =>
      call('listSubcategoryObjects', key, {
        path: { categoryId: fx.categoryId, subcategoryId: fx.subcategoryId },
      }),
  },
  {
    name: 'create an object',
    operation: 'createObject',
    send: (key, fx) =>
      call('createObject', key, {
        path: { categoryId: fx.categoryId, subcategoryId: fx.subcategoryId },
        body: { externalId: `M-${randomUUID()}`, name: 'Matrix' },
      }),
  },
  {
    name: 'get an object',
    operation: 'getObject',
    send: (key, fx) => call('getObject', key, { path: { objectId: fx.objectId } }),
  },
  {
    name: 'get an object at its company address',
    operation: 'getCompanyObject',
    send: (key, fx) =>
      call('getCompanyObject', key, { path: { companyId: COMPANY_ID, objectId: fx.objectId } }),
  },
  {
    name: 'update an object (each action)',
    operation: 'updateObject',
    send: async (key, fx) => {
      for (const body of [
        { action: 'update', description: 'Changed' },
        { action: 'transfer', owner: 'Someone' },
        { action: 'report_stolen' },
        { action: 'repair' },
      ]) {
        const response = await call('updateObject', key, { path: { objectId: fx.objectId }, body });
        if (response.statusCode !== 200) return response;
      }
      return { statusCode: 200, body: undefined };
    },
  },
  {
    name: "list an object's events",
    operation: 'listObjectEvents',
    send: (key, fx) => call('listObjectEvents', key, { path: { objectId: fx.objectId } }),
  },
  {
    name: "list the company's events",
    operation: 'listCompanyEvents',
    send: (key) => call('listCompanyEvents', key, { query: { limit: '5' } }),
  },
  {
    name: 'verify an object',
    operation: 'verifyObject',
    send: (key, fx) => call('verifyObject', key, { path: { objectId: fx.objectId } }),
  },
  // Files
  {
    name: 'upload a file',
    operation: 'uploadFile',
    send: (key, fx) => uploadSample(key, fx.objectId, sample('notes.txt')),
  },
  {
    name: "list an object's files",
    operation: 'listFiles',
    send: (key, fx) => call('listFiles', key, { path: { companyId: COMPANY_ID, objectId: fx.objectId } }),
  },
  {
    name: 'download a file',
    operation: 'downloadFile',
    send: async (key, fx) => {
      const response = await download(key, fx.fileId);
      return { statusCode: response.statusCode, body: response.json };
    },
  },
  {
    name: 'delete a file',
    operation: 'deleteFile',
    send: async (key, fx, fresh) => {
      const fileId = fresh
        ? (await uploadSampleOk(companyAdmin, fx.objectId, sample('notes.txt'))).id
        : fx.spare.fileId;
      return deleteFile(key, fileId);
    },
  },
  {
    name: 'start a presigned file upload',
    operation: 'createUploadSession',
    send: (key, fx) =>
      call('createUploadSession', key, {
        path: { companyId: COMPANY_ID, objectId: fx.objectId },
        body: { fileName: 'notes.txt', mimeType: 'text/plain', size: 10 },
      }),
  },
  {
    name: 'complete a presigned file upload (unknown upload)',
    operation: 'completeUploadSession',
    allowedStatuses: [404],
    send: (key, fx) =>
      call('completeUploadSession', key, {
        path: { companyId: COMPANY_ID, objectId: fx.objectId, uploadId: randomUUID() },
      }),
  },
  // Webhooks
  { name: 'list webhooks', operation: 'listWebhooks', send: (key) => call('listWebhooks', key) },
  {
    name: 'create a webhook for every event (the default)',
    operation: 'createWebhook',
    conditions: EVERY_KIND_OF_EVENT,
    send: (key) => call('createWebhook', key, { body: { url: WEBHOOK_URL } }),
  },
  ...(
    [
      ['object.transferred', 'objectEvents'],
      ['file.uploaded', 'fileEvents'],
      ['subcategory.removed', 'subcategoryEvents'],
    ] as const
  ).map(
    ([type, condition]): MatrixCase => ({
      name: `create a webhook for ${type}`,
      operation: 'createWebhook',
      conditions: [condition],
      send: (key) => call('createWebhook', key, { body: { url: WEBHOOK_URL, events: [type] } }),
    }),
  ),
  {
    name: 'get a webhook',
    operation: 'getWebhook',
    send: (key, fx) => call('getWebhook', key, { path: { webhookId: fx.webhookId } }),
  },
  {
    name: "update a webhook's description",
    operation: 'updateWebhook',
    send: (key, fx) =>
      call('updateWebhook', key, { path: { webhookId: fx.webhookId }, body: { description: 'Changed' } }),
  },
  {
    name: "update a webhook's url (its events are every kind, for all the request shows)",
    operation: 'updateWebhook',
    conditions: EVERY_KIND_OF_EVENT,
    send: (key, fx) =>
      call('updateWebhook', key, { path: { webhookId: fx.webhookId }, body: { url: WEBHOOK_URL } }),
  },
  {
    name: "update a webhook's events to file events",
    operation: 'updateWebhook',
    conditions: ['fileEvents'],
    send: (key, fx) =>
      call('updateWebhook', key, { path: { webhookId: fx.webhookId }, body: { events: ['file.deleted'] } }),
  },
  {
    name: 'delete a webhook',
    operation: 'deleteWebhook',
    send: async (key, fx, fresh) => {
      const webhookId = fresh
        ? (await createWebhookOk(companyAdmin, { url: WEBHOOK_URL })).id
        : fx.spare.webhookId;
      return call('deleteWebhook', key, { path: { webhookId } });
    },
  },
  {
    name: "rotate a webhook's secret",
    operation: 'rotateWebhookSecret',
    send: (key, fx) => call('rotateWebhookSecret', key, { path: { webhookId: fx.webhookId } }),
  },
  {
    name: "list a webhook's deliveries",
    operation: 'listWebhookDeliveries',
    send: (key, fx) => call('listWebhookDeliveries', key, { path: { webhookId: fx.webhookId } }),
  },
  {
    name: 'retry a delivery (unknown delivery)',
    operation: 'retryWebhookDelivery',
    allowedStatuses: [404],
    send: (key, fx) =>
      call('retryWebhookDelivery', key, { path: { webhookId: fx.webhookId, deliveryId: randomUUID() } }),
  },
  {
    name: "list a webhook's dead letters",
    operation: 'listWebhookDeadLetters',
    send: (key, fx) => call('listWebhookDeadLetters', key, { path: { webhookId: fx.webhookId } }),
  },
  {
    name: "replay a webhook's dead letters",
    operation: 'replayWebhookDeadLetters',
    send: (key, fx) => call('replayWebhookDeadLetters', key, { path: { webhookId: fx.webhookId } }),
  },
  // Wallets (an App's)
  { name: 'list wallets', operation: 'listWallets', send: (key) => call('listWallets', key) },
  {
    name: 'create a wallet',
    operation: 'createWallet',
    send: (key) => call('createWallet', key, { body: { username: walletName(), password: 'matrix-pass-1' } }),
  },
  {
    name: 'get a wallet',
    operation: 'getWallet',
    send: (key, fx) => call('getWallet', key, { path: { walletId: fx.walletId } }),
  },
  {
    name: 'update a wallet',
    operation: 'updateWallet',
    send: (key, fx) => call('updateWallet', key, { path: { walletId: fx.walletId }, body: { metadata: {} } }),
  },
  {
    name: 'delete a wallet',
    operation: 'deleteWallet',
    send: async (key, fx, fresh) => {
      const walletId = fresh ? await givenWallet() : fx.spare.walletId;
      return call('deleteWallet', key, { path: { walletId } });
    },
  },
  // The log's public reads take any key; an event's proof is the object's.
  // 200 once the sequencer has published a checkpoint, 404 CHECKPOINT_NOT_FOUND before.
  {
    name: 'the log checkpoint',
    operation: 'getLedgerCheckpoint',
    allowedStatuses: [200, 404],
    send: (key) => call('getLedgerCheckpoint', key),
  },
  {
    name: 'who is calling',
    operation: 'getMe',
    send: (key) => call('getMe', key),
  },
  {
    name: 'the log key',
    operation: 'getLedgerKey',
    allowedStatuses: [200, 404],
    send: (key) => call('getLedgerKey', key),
  },
  {
    name: 'a log tile (none yet at that index)',
    operation: 'getLedgerTile',
    allowedStatuses: [404],
    send: (key) => call('getLedgerTile', key, { path: { tilePath: 'tile/0/x999/999' } }),
  },
  {
    name: 'a consistency proof (bad range)',
    operation: 'getLedgerConsistency',
    allowedStatuses: [400],
    send: (key) => call('getLedgerConsistency', key, { query: { from: '2', to: '1' } }),
  },
  {
    name: "an event's proof (not checkpointed yet, or found)",
    operation: 'getEventProof',
    // 200 once the sequencer has reached the event, 404 or 409 before.
    allowedStatuses: [200, 404, 409],
    send: (key, fx) => call('getEventProof', key, { path: { objectId: fx.objectId, sequence: '1' } }),
  },
  {
    name: "an object's bundle (not checkpointed yet, or found)",
    operation: 'getObjectBundle',
    // 200 once the sequencer has reached every event of the object; 404 before any checkpoint, 409 before it has them.
    allowedStatuses: [200, 404, 409],
    send: (key, fx) => call('getObjectBundle', key, { path: { objectId: fx.objectId } }),
  },
  // Imports: each mode and each way of sending the file
  {
    name: 'import, create mode',
    operation: 'createImport',
    send: (key, fx) =>
      postImportFile(
        key,
        csv([
          ['externalId', 'name', 'subcategoryId'],
          [`I-${randomUUID()}`, 'Row', fx.subcategoryId],
        ]),
      ),
  },
  {
    name: 'import, upsert mode',
    operation: 'createImport',
    send: (key, fx) =>
      postImportFile(
        key,
        csv([
          ['externalId', 'name', 'subcategoryId'],
          [`I-${randomUUID()}`, 'Row', fx.subcategoryId],
        ]),
        'text/csv',
        { mode: 'upsert' },
      ),
  },
  {
    name: 'import with createMissing=true (query)',
    operation: 'createImport',
    conditions: ['createMissing'],
    send: (key) =>
      postImportFile(
        key,
        csv([
          ['externalId', 'name', 'category', 'subcategory'],
          [`I-${randomUUID()}`, 'Row', `C ${randomUUID()}`, 'Sub'],
        ]),
        'text/csv',
        { createMissing: 'true' },
      ),
  },
  {
    name: 'import with createMissing by presigned upload (JSON field)',
    operation: 'createImport',
    conditions: ['createMissing'],
    send: (key) => postImportJson(key, { size: 100, fileName: 'rows.csv', createMissing: true }),
  },
  {
    name: 'start an import',
    operation: 'startImport',
    // Nothing was uploaded: an allowed key hears 409 UPLOAD_NOT_RECEIVED, and the job stays pending.
    allowedStatuses: [409],
    send: (key, fx) => startImport(key, fx.spare.pendingImportId),
  },
  {
    name: 'start an import with createMissing',
    operation: 'startImport',
    conditions: ['createMissing'],
    allowedStatuses: [409],
    send: (key, fx) => startImport(key, fx.spare.pendingCreateMissingImportId),
  },
  { name: 'list imports', operation: 'listImports', send: (key) => call('listImports', key) },
  {
    name: 'get an import',
    operation: 'getImport',
    send: (key, fx) => call('getImport', key, { path: { importId: fx.importId } }),
  },
  {
    name: "list an import's errors",
    operation: 'listImportErrors',
    send: (key, fx) => call('listImportErrors', key, { path: { importId: fx.importId } }),
  },
  // Exports
  {
    name: 'export objects',
    operation: 'exportObjects',
    send: (key, fx) => call('exportObjects', key, { query: { subcategoryId: fx.subcategoryId } }),
  },
  // The company's access: an admin person's only.
  {
    name: 'issue an API key',
    operation: 'createApiKey',
    send: (key) => call('createApiKey', key, { body: { permissions: ['objects:read'], label: 'Matrix' } }),
  },
  {
    name: 'revoke an API key',
    operation: 'revokeApiKey',
    send: async (key, fx, fresh) => {
      const keyId = fresh ? await givenKey() : fx.spare.keyId;
      return call('revokeApiKey', key, { path: { keyId } });
    },
  },
  {
    name: "list the company's identity providers",
    operation: 'listIdentityProviders',
    send: (key) => call('listIdentityProviders', key),
  },
  {
    name: 'register an identity provider',
    operation: 'addIdentityProvider',
    send: (key) => call('addIdentityProvider', key, { body: { issuer: newIssuer(), audience: 'matrix' } }),
  },
  {
    name: 'remove an identity provider',
    operation: 'removeIdentityProvider',
    send: async (key, fx, fresh) => {
      const issuer = fresh ? await givenProvider() : fx.spare.issuer;
      return call('removeIdentityProvider', key, { query: { issuer } });
    },
  },
  {
    name: 'get an export (unknown)',
    operation: 'getExport',
    allowedStatuses: [404],
    send: (key, fx) => call('getExport', key, { path: { exportId: fx.exportId } }),
  },
];

const WEBHOOK_URL = 'https://127.0.0.1/matrix-hooks';
const walletName = () => `matrix_${randomUUID().slice(0, 12)}`;

async function givenWallet(): Promise<string> {
  const created = await call('createWallet', appAdmin, {
    body: { username: walletName(), password: 'matrix-pass-1' },
  });
  if (created.statusCode !== 201) throw new Error(`wallet: ${JSON.stringify(created.body)}`);
  return (created.body as unknown as { id: string }).id;
}

const newIssuer = () => `https://idp-${randomUUID()}.matrix.example`;

async function givenKey(): Promise<string> {
  return (await issueApiKey('company', COMPANY_ID, ['objects:read'])).keyId;
}

async function givenProvider(): Promise<string> {
  const { issuer } = await registerIdentityProvider({
    companyId: COMPANY_ID,
    issuer: newIssuer(),
    audience: 'matrix',
  });
  return issuer;
}

async function givenPendingImport(createMissing: boolean): Promise<string> {
  const created = await postImportJson(companyAdmin, { size: 100, fileName: 'rows.csv', createMissing });
  if (created.statusCode !== 202) throw new Error(`import: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

/**
 * What a key or a person should get: the row's 403, or through the gate. A person's permissions
 * and audit-trail grant are read from `ROLES`, not from the principal the authorizer made.
 */
function expectedOutcome(
  row: KeyedOperation,
  conditions: readonly string[],
  key: Principal,
): 'allowed' | 'denied' {
  // A valid token whose roles claim maps to no role: 403 on every operation.
  if (key.refusal) return 'denied';
  // The company's access: a person whose role manages it, and no API key whatever it holds.
  if (row.accessManagement) return key.person && ROLES[key.person.role].managesAccess ? 'allowed' : 'denied';
  if (row.anyKey) return 'allowed';
  if (key.type !== row.principal) return 'denied';
  const granted: readonly Permission[] = key.person
    ? ROLES[key.person.role].permissions
    : [...key.permissions];
  if (!permissionsNeeded(row, conditions).every((permission) => granted.includes(permission)))
    return 'denied';
  return row.auditTrail && key.person && !ROLES[key.person.role].auditTrail ? 'denied' : 'allowed';
}

const labelOf = (key: { type: PrincipalType; permissions: Iterable<Permission> }) =>
  `${key.type} [${[...key.permissions].sort().join(' ')}]`;

/** A person is named by role, since two roles may grant the same permissions. */
const callerLabelOf = (key: Principal) =>
  key.person ? `person ${key.person.role}` : key.refusal ? 'person without a role' : labelOf(key);

/** The roles claim of the person without a role: no role's name. */
const NO_ROLE_CLAIM = ['superuser'];

/** A person of each role of the one company, and one without a role (set up once, below). */
let people: Principal[] = [];
let provider: TestIdentityProvider;
let unregisterProvider: () => Promise<void>;

let fixtures: Fixtures;

beforeAll(async () => {
  provider = await startTestIdentityProvider();
  unregisterProvider = await registerTestProvider(provider, COMPANY_ID);
  people = await Promise.all(
    [...ROLE_NAMES.map((role) => [role]), NO_ROLE_CLAIM].map((roles) =>
      personPrincipalOf(provider, { roles }),
    ),
  );
  const [place, spare, filled, webhook, spareWebhook, walletId, spareWalletId] = await Promise.all([
    givenSubcategoryPath(companyAdmin),
    givenSubcategoryPath(companyAdmin),
    givenFilledSubcategory(),
    createWebhookOk(companyAdmin, { url: WEBHOOK_URL }),
    createWebhookOk(companyAdmin, { url: WEBHOOK_URL }),
    givenWallet(),
    givenWallet(),
  ]);
  const object = await givenObject(companyAdmin, place);
  const [file, spareFile, importId, pendingImportId, pendingCreateMissingImportId, spareKeyId, spareIssuer] =
    await Promise.all([
      uploadSampleOk(companyAdmin, object.id, sample('notes.txt')),
      uploadSampleOk(companyAdmin, object.id, sample('notes.txt')),
      givenPendingImport(false),
      givenPendingImport(false),
      givenPendingImport(true),
      givenKey(),
      givenProvider(),
    ]);
  fixtures = {
    ...place,
    objectId: object.id,
    fileId: file.id,
    webhookId: webhook.id,
    walletId,
    importId,
    exportId: randomUUID(),
    spare: {
      place: spare,
      filledPlace: filled.place,
      fileId: spareFile.id,
      webhookId: spareWebhook.id,
      walletId: spareWalletId,
      pendingImportId,
      pendingCreateMissingImportId,
      keyId: spareKeyId,
      issuer: spareIssuer,
    },
  };
});

afterAll(async () => {
  await settleBackgroundJobs();
  await unregisterProvider?.();
  await provider?.close();
});

describe('the permission matrix', () => {
  it('has a request for every operation that takes a key, and the table names every condition', () => {
    // Prepare
    const keyed = operationList.filter((row) => keyedOperation(row)).map((row) => row.id);
    const declared = operationList.flatMap((row) =>
      Object.keys(keyedOperation(row)?.conditionalPermissions ?? {}).map((name) => `${row.id} ${name}`),
    );
    // Act
    const covered = new Set(CASES.map((entry) => entry.operation));
    const exercised = new Set(
      CASES.flatMap((entry) => (entry.conditions ?? []).map((name) => `${entry.operation} ${name}`)),
    );
    // Assess
    expect(keyed.filter((id) => !covered.has(id))).toEqual([]);
    expect(declared.filter((condition) => !exercised.has(condition))).toEqual([]);
  });

  it('declares what the issue found missing: imports that create categories, removals that delete objects and files', () => {
    // Assess
    expect(permissionsNeeded(operations.createImport, ['createMissing']).sort()).toEqual([
      'categories:write',
      'objects:write',
    ]);
    expect(permissionsNeeded(operations.startImport, ['createMissing']).sort()).toEqual([
      'categories:write',
      'objects:write',
    ]);
    expect(permissionsNeeded(operations.updateSubcategory, ['remove']).sort()).toEqual([
      'categories:write',
      'files:write',
      'objects:write',
    ]);
  });

  it("has a person of each role, as the authorizer resolved each one's token", () => {
    // Assess
    expect(people.map(callerLabelOf)).toEqual([
      ...ROLE_NAMES.map((role) => `person ${role}`),
      'person without a role',
    ]);
    for (const person of people) {
      expect(person).toMatchObject({ type: 'company', tenantId: COMPANY_ID });
      if (person.person)
        expect([...person.permissions].sort()).toEqual([...ROLES[person.person.role].permissions].sort());
      else expect(person.refusal).toMatch(/^The token's "roles" claim maps to no role/);
    }
  });

  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    // Prepare
    const row = keyedOperation(operations[entry.operation]);
    if (!row) throw new Error(`${entry.operation} takes no key`);
    const conditions = entry.conditions ?? [];
    const needed = permissionsNeeded(row, conditions);
    // Each single permission of each kind; exactly what it needs; and, when it needs several,
    // each of those without one of them.
    const keySets = [
      ...SINGLE_KEYS,
      { type: row.principal, permissions: needed },
      ...(needed.length > 1
        ? needed.map((left) => ({ type: row.principal, permissions: needed.filter((p) => p !== left) }))
        : []),
      // No key manages the company's access, not even one with every permission of a company.
      ...(row.accessManagement ? [{ type: 'company' as const, permissions: COMPANY_PERMISSIONS }] : []),
    ];
    const keys = [
      ...[...new Map(keySets.map((set) => [labelOf(set), set])).values()].map((set) =>
        keyOf(set.type, set.permissions),
      ),
      ...people,
    ];
    const passed = entry.allowedStatuses ?? [row.successStatus];
    // Act
    // One at a time: each function keeps one warm environment (in parallel, each key would start one).
    const responses: Response[] = [];
    for (const key of keys) {
      responses.push(await entry.send(key, fixtures, expectedOutcome(row, conditions, key) === 'allowed'));
    }
    await settleBackgroundJobs();
    // Assess
    const expected: Record<string, string> = {};
    const actual: Record<string, string> = {};
    keys.forEach((key, index) => {
      const label = callerLabelOf(key);
      const response = responses[index]!;
      expected[label] =
        expectedOutcome(row, conditions, key) === 'allowed' ? 'passed' : `403 ${row.deniedCode}`;
      actual[label] =
        response.statusCode === 403
          ? `403 ${response.body?.code}`
          : passed.includes(response.statusCode)
            ? 'passed'
            : `${response.statusCode} ${JSON.stringify(response.body)}`;
    });
    expect(actual).toEqual(expected);
  });
});

describe('what a refused import or removal leaves', () => {
  it('creates no category for an objects:write key importing with createMissing, and names the missing permission', async () => {
    // Prepare
    const categoryName = `Refused ${randomUUID()}`;
    const file = csv([
      ['externalId', 'name', 'category', 'subcategory'],
      [`R-${randomUUID()}`, 'Row', categoryName, 'Sub'],
    ]);
    const objectsOnly = keyOf('company', ['objects:write']);
    // Act
    const refused = await postImportFile(objectsOnly, file, 'text/csv', { createMissing: 'true' });
    const allowed = await postImportFile(
      keyOf('company', ['objects:write', 'categories:write']),
      file,
      'text/csv',
      {
        createMissing: 'true',
      },
    );
    await settleBackgroundJobs();
    const job = await getImport(companyAdmin, allowed.body.id);
    const categories = await call('listCategories', companyAdmin, {
      query: { name: categoryName, status: 'all' },
    });
    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toEqual({
      error:
        'The API key lacks the permission categories:write, which an import with createMissing=true (it creates categories and subcategories) needs',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.any(String),
    });
    expect(job.body).toMatchObject({ status: 'completed', counts: expect.objectContaining({ created: 1 }) });
    expect((categories.body as unknown as { data: unknown[] }).data).toHaveLength(1);
  });

  it('keeps the objects and files of a subcategory that a categories:write key tried to remove', async () => {
    // Prepare
    const { place, objectId, fileId } = await givenFilledSubcategory();
    const categoriesOnly = keyOf('company', ['categories:write']);
    // Act
    const refused = await call('updateSubcategory', categoriesOnly, {
      path: subcategoryPath(place),
      body: { action: 'REMOVE' },
    });
    await settleBackgroundJobs();
    const object = await getObject(companyAdmin, objectId);
    const bytes = await download(companyAdmin, fileId);
    const removed = await call('updateSubcategory', keyOf('company', needsOfRemove()), {
      path: subcategoryPath(place),
      body: { action: 'REMOVE' },
    });
    await settleBackgroundJobs();
    const left = await listAllObjects(companyAdmin, { subcategoryId: place.subcategoryId, status: 'all' });
    const bytesAfter = await download(companyAdmin, fileId);
    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toEqual({
      error:
        "The API key lacks the permissions objects:write, files:write, which action REMOVE (it deletes the subcategory's objects and their files) needs",
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.any(String),
    });
    expect(object.statusCode).toBe(200);
    expect(bytes.statusCode).toBe(200);
    expect(removed.statusCode).toBe(200);
    expect(left).toEqual([]);
    expect(bytesAfter.statusCode).toBe(404);
  });

  it('creates no category in a createMissing job whose recorded key lacks categories:write (a job from before the check)', async () => {
    // Prepare
    const categoryName = `Recorded ${randomUUID()}`;
    const file = csv([
      ['externalId', 'name', 'category', 'subcategory'],
      [`J-${randomUUID()}`, 'Row', categoryName, 'Sub'],
    ]);
    const created = await postImportJson(companyAdmin, {
      size: Buffer.byteLength(file),
      fileName: 'rows.csv',
      createMissing: true,
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(created.body.upload.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([file], { type: 'text/csv' }), 'rows.csv');
    await fetch(created.body.upload.url, { method: 'POST', body: form });
    // The same file, in a job recorded as an objects:write key's.
    const job = await findImportJob(COMPANY_ID, created.body.id);
    if (!job) throw new Error('no job');
    const recorded = {
      ...job,
      id: randomUUID(),
      principal: { ...job.principal, permissions: ['objects:write'] as Permission[] },
    };
    await insertImportJob(recorded);
    // Act
    const started = await startImport(companyAdmin, recorded.id);
    await settleBackgroundJobs();
    const finished = await getImport(companyAdmin, recorded.id);
    const categories = await call('listCategories', companyAdmin, {
      query: { name: categoryName, status: 'all' },
    });
    // Assess
    expect(started.statusCode).toBe(202);
    expect(finished.body).toMatchObject({
      status: 'completed',
      counts: expect.objectContaining({ created: 0, failed: 1 }),
    });
    expect((categories.body as unknown as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses to start a createMissing import for a key without categories:write', async () => {
    // Prepare
    const created = await postImportJson(companyAdmin, {
      size: 100,
      fileName: 'rows.csv',
      createMissing: true,
    });
    // Act
    const refused = await startImport(keyOf('company', ['objects:write']), created.body.id);
    const job = await getImport(companyAdmin, created.body.id);
    // Assess
    expect(refused.statusCode).toBe(403);
    expect(refused.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect(refused.body.error).toContain('categories:write');
    expect(job.body.status).toBe('pending');
  });
});

const needsOfRemove = () => permissionsNeeded(operations.updateSubcategory, ['remove']);
