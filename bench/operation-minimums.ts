/**
 * The fewest DynamoDB calls each operation needs for the bench's request, and why; `npm run
 * bench` prints the measured count next to it. The rule: the fewest requests that give the same
 * response with the same guarantees on today's key design. Reads of known keys that run side by
 * side count one each (a BatchGetItem would bill the same read units and wait as long).
 * `excess` says where calls above the minimum come from; it is shown only when the measured
 * count is above the minimum.
 *
 * Keyed by `CaseKey`: every operation of the table that is not in `UNMEASURED_OPERATIONS` has a
 * minimum here and a case in `scenarios/operation-cases.ts`, or neither file compiles.
 */
import type { OperationId } from '../lambdas/operations';
import { webhookOperationMinimums } from './webhook-operation-minimums';

export interface StatedMinimum {
  calls: number;
  reason: string;
  excess?: string;
  /** Capacity spent above what the calls need, shown whatever the count. */
  capacityNote?: string;
}

/**
 * The operations the calls section (`scenarios/operation-costs.ts`) does not measure yet, each
 * with why; a full bench run lists them as having no case. Adding a case and a minimum for one
 * means removing it from here.
 */
export const UNMEASURED_OPERATIONS = {
  getLedgerCheckpoint: 'no case yet: it needs a published checkpoint, so a sequencer cycle first',
  getLedgerKey: 'no case yet: it needs a published checkpoint, so a sequencer cycle first',
  getLedgerTile: 'no case yet: it needs a sequenced log (S3 tiles), so a sequencer cycle first',
  getLedgerConsistency: 'no case yet: it needs two published tree sizes',
  getEventProof: 'no case yet: it needs the event sequenced into a published checkpoint',
  getObjectBundle:
    'no case here: it needs the events sequenced into a published checkpoint; the web-console section (`scenarios/web-console.ts`) times it serving 1,000 events',
  createImport: 'no case yet: the bulk section (`scenarios/bulk-import-export.ts`) runs imports whole',
  startImport: 'no case yet: it needs a file at the presigned upload of a new import each run',
  listImports: 'no case yet',
  getImport: 'no case yet',
  listImportErrors: 'no case yet',
  exportObjects: 'no case yet: the bulk section (`scenarios/bulk-import-export.ts`) runs exports whole',
  getExport: 'no case yet',
} as const satisfies Partial<Record<OperationId, string>>;

/** The operations that have a case and a stated minimum. */
export type MeasuredOperationId = Exclude<OperationId, keyof typeof UNMEASURED_OPERATIONS>;

/** A second case of a measured operation, with its own minimum: `<operation id> + <what differs>`. */
export type CaseVariant = 'createObject + Idempotency-Key';

/** What a case and its minimum are keyed by. */
export type CaseKey = MeasuredOperationId | CaseVariant;

export const operationMinimums: Record<CaseKey, StatedMinimum> = {
  listCategories: {
    calls: 3,
    reason:
      'Query of the index window + GetItem of the counters (the total), side by side; + 1 Query per category on the page that has subcategories (they live in its own partition; bench page: 1 of 3). Subcategory summaries copied onto the category item would make it 2 for any page',
  },
  createCategory: {
    calls: 1,
    reason: 'one TransactWriteItems: category, name marker (uniqueness), tenant counter',
  },
  getCategory: {
    calls: 1,
    reason:
      'one Query of the category partition from sort key CATEGORY to SUBCATEGORY#~: the category and its subcategories are neighbours there (findCategoryWithSubcategories)',
  },
  updateCategory: {
    calls: 2,
    reason:
      'one Query of the category partition (version to condition on, subcategories to respond with) + one write',
    capacityNote:
      'when neither the name nor the status changes the write is a TransactWriteItems of one item: twice the write units of the same UpdateItem',
  },
  createSubcategory: {
    calls: 1,
    reason:
      "one TransactWriteItems: subcategory, name marker, first ledger event, chain head, and the category's statistics, whose attribute_exists(pk) condition already refuses a missing category (with an image: + 1 GetItem of the category first, so that no image bytes are stored for a category that does not exist)",
  },
  getSubcategory: {
    calls: 3,
    reason:
      'GetItem of the subcategory, GetItem of the category (its name), Query of the subcategory files, side by side',
  },
  updateSubcategory: {
    calls: 2,
    reason:
      'GetItem of the subcategory (version, chain head) + one TransactWriteItems (subcategory, ledger event, chain head)',
  },
  listObjects: {
    calls: 2,
    reason:
      'Query of the index window (limit 20) + GetItem of the counters (total; subcategories under removal), side by side',
  },
  listSubcategoryObjects: {
    calls: 2,
    reason: 'GetItem of the subcategory (exists; its objectCount is the total) + Query of its index window',
  },
  createObject: {
    calls: 1,
    reason:
      'one TransactWriteItems: object, externalId marker, tenant counter, ledger event, chain head, category statistics, and the subcategory counter whose condition (attribute_exists AND status = active) refuses a missing, removed or delisted subcategory',
  },
  'createObject + Idempotency-Key': {
    calls: 3,
    reason:
      'the object transaction + the idempotency record: a conditional PutItem before and an UpdateItem with the response after (Powertools idempotency)',
  },
  getObject: {
    calls: 2,
    reason:
      'GetItem of the object + GetItem of the counters (objects of a subcategory under removal are hidden), side by side',
  },
  getCompanyObject: { calls: 2, reason: 'as getObject' },
  updateObject: {
    calls: 3,
    reason:
      'the object + the counters (visibility), side by side, + one TransactWriteItems (object conditioned on eventCount, ledger event, chain head)',
  },
  listObjectEvents: {
    calls: 3,
    reason: 'the object + the counters (visibility; eventCount is the total) + Query of the chain window',
  },
  listCompanyEvents: {
    calls: 2,
    reason:
      "Query of the company's time index (one page) + BatchGetItem of the page's objects (external ids)",
  },
  verifyObject: {
    calls: 3,
    reason: 'the object + the counters + Query of the whole chain (one page up to 1 MB)',
  },
  listWallets: {
    calls: 2,
    reason: 'Query of the index window + GetItem of the counters (the total), side by side',
  },
  createWallet: { calls: 1, reason: 'one TransactWriteItems: wallet, username marker, counter' },
  walletLogin: {
    calls: 7,
    reason:
      "GetItem of the throttle record of this username and address + its conditional UpdateItem that counts the attempt before the password is checked (parallel guesses cannot outrun the wait), GetItem of the username marker (username → wallet id), GetItem of the wallet (hash) and of the App (its wallet usage key) side by side, TransactWriteItems of session + login record, UpdateItem that clears the address's count after the success",
  },
  getWallet: { calls: 1, reason: 'one GetItem' },
  updateWallet: {
    calls: 2,
    reason:
      'GetItem (version; the old status decides the counter move and the index keys) + one conditional write',
    capacityNote:
      'when the status does not change (metadata, password) the write is a TransactWriteItems of one item: twice the write units of the same UpdateItem',
  },
  deleteWallet: {
    calls: 2,
    reason:
      'GetItem (username for its marker, status for its counter) + one TransactWriteItems (wallet, marker, counter)',
  },
  uploadFile: {
    calls: 3,
    reason:
      'the object + the counters before any byte is stored (an unknown object is refused first) + one TransactWriteItems (file record, object conditioned on eventCount, ledger event, chain head)',
  },
  listFiles: {
    calls: 3,
    reason:
      "the object + the counters (visibility; fileCount is the total) + Query of the object's files window",
  },
  downloadFile: {
    calls: 3,
    reason: 'GetItem of the file record, then the object + the counters (visibility), side by side',
  },
  deleteFile: {
    calls: 4,
    reason:
      'GetItem of the file, the object + the counters, + one TransactWriteItems (file record deleted with attribute_exists, object conditioned on eventCount, ledger event, chain head)',
  },
  createUploadSession: {
    calls: 3,
    reason: 'the object + the counters (exists and visible) + one PutItem of the session',
  },
  completeUploadSession: {
    calls: 4,
    reason:
      'the object + the counters, GetItem of the session, + one TransactWriteItems (file record, session deleted, object, ledger event, chain head)',
  },
  getMe: { calls: 1, reason: "Query of the tenant's key labels (the caller itself is the authorizer's)" },
  openapi: { calls: 0, reason: 'the document is built in memory from the operation table' },
  createApiKey: {
    calls: 1,
    reason: "one TransactWriteItems: the key's item and its label's (a key without a label: one PutItem)",
  },
  revokeApiKey: {
    calls: 2,
    reason: "GetItem (the key is the caller's company's, else 404) + one conditional UpdateItem",
  },
  listIdentityProviders: {
    calls: 1,
    reason: "one Query of the providers' partition (every company's, filtered in memory: providers are few)",
  },
  addIdentityProvider: { calls: 1, reason: 'one conditional PutItem (an issuer belongs to one company)' },
  removeIdentityProvider: { calls: 1, reason: "one DeleteItem conditional on the caller's company" },
  ...webhookOperationMinimums,
};

/** The stated minimum of a case key or operation id; undefined for an unmeasured operation. */
export const statedMinimumOf = (key: string): StatedMinimum | undefined =>
  Object.hasOwn(operationMinimums, key) ? operationMinimums[key as CaseKey] : undefined;

/** The authorizer's calls per request, counted apart from the operations'. */
export const authorizerMinimums: Record<string, StatedMinimum> = {
  'API key, cold cache': {
    calls: 1,
    reason: 'GetItem of the key item, found by the key id inside the key',
  },
  'API key, warm cache': { calls: 0, reason: 'a resolved key is kept in memory for 5 s' },
  'wallet token, cold cache': {
    calls: 2,
    reason:
      "GetItem of the session (by the token's hash) + conditional UpdateItem that counts the call and checks the session version",
  },
  'wallet token, warm cache': {
    calls: 1,
    reason:
      'the session is kept in memory; the counting write is not skipped (apiCallCount exact, a revoked session refused at once)',
  },
  'person token, cold cache': {
    calls: 1,
    reason:
      "GetItem of the identity provider's item (by the token's iss); its discovery document and key set (JWKS) are fetched over HTTP, 2 fetches that no DynamoDB call can replace",
  },
  'person token, warm cache': {
    calls: 0,
    reason:
      'the provider item is kept in memory for 60 s, its discovery document for an hour and its key set for 10 min; the signature is still verified on every call',
  },
};
