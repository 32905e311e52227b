/**
 * One case per row of the operation table (and a few variants): what the request acts on,
 * built once, and the request of each run. Requests that create something use fresh names
 * per run; requests that remove something get a fresh thing per run, built before the timer
 * starts. Keyed by operation id: a row of the table without a case (and not listed in
 * `UNMEASURED_OPERATIONS`, `bench/operation-minimums.ts`) does not compile.
 */
import { randomUUID } from 'node:crypto';
import { type OperationId, operations } from '../../lambdas/operations';
import { putFileBytes } from '../../lambdas/repositories/file-store';
import type { CaseKey, CaseVariant, MeasuredOperationId } from '../operation-minimums';
import {
  givenCategory,
  givenFile,
  givenObject,
  givenPlace,
  givenSubcategory,
  givenWallet,
  newApp,
  newCompany,
  newObjectBody,
  type Place,
  type Tenant,
  uniqueName,
  uploadBody,
  WALLET_PASSWORD,
} from '../support/fixtures';
import { invokeExpecting, type OperationRequest, samplePdf } from '../support/handler-calls';
import { accessOperationCases } from './access-operation-cases';
import { webhookOperationCases } from './webhook-operation-cases';

/** What every case may build on: a company with a category and subcategory, and an App. */
export interface CaseWorld {
  company: Tenant;
  place: Place;
  app: Tenant;
}

export interface PreparedCase {
  /** The request of run `run` (negative runs warm up); built before the timer starts. */
  request(run: number): OperationRequest | Promise<OperationRequest>;
}

export interface OperationCase {
  /** The operation id, or a variant's label (`createObject + Idempotency-Key`). */
  key: CaseKey;
  operationId: MeasuredOperationId;
  /** What the request acts on, shown next to the minimum. */
  fixture: string;
  /** Fewer timed runs for operations that hash a password (scrypt, ~0.1 s each). */
  slow?: boolean;
  prepare(world: CaseWorld): Promise<PreparedCase>;
}

/** A case as a table keyed by operation holds it: the key says which operation. */
export type OperationCaseOf = Omit<OperationCase, 'key' | 'operationId'>;

const withId = <K extends OperationId>(id: K) => operations[id];

async function objectWithUpdates(world: CaseWorld, updates: number): Promise<string> {
  const objectId = await givenObject(world.company, world.place);
  for (let update = 0; update < updates; update++) {
    await invokeExpecting(withId('updateObject'), {
      principal: world.company.principal,
      pathParameters: { objectId },
      body: { action: 'update', description: `Update ${update}` },
    });
  }
  return objectId;
}

/** One case per measured operation (`bench/operation-minimums.ts` says which are not). */
const casesByOperation: Record<MeasuredOperationId, OperationCaseOf> = {
  listCategories: {
    fixture: 'a company with 3 categories, 1 of them with a subcategory',
    async prepare() {
      const company = await newCompany();
      const withSubcategory = await givenCategory(company);
      await givenSubcategory(company, withSubcategory);
      await givenCategory(company);
      await givenCategory(company);
      return { request: () => ({ principal: company.principal }) };
    },
  },
  createCategory: {
    fixture: 'a new name each run',
    async prepare({ company }) {
      return {
        request: () => ({
          principal: company.principal,
          body: { name: uniqueName('Created'), description: 'Created by the benchmark' },
        }),
      };
    },
  },
  getCategory: {
    fixture: 'a category with 1 subcategory',
    async prepare({ company, place }) {
      return {
        request: () => ({ principal: company.principal, pathParameters: { categoryId: place.categoryId } }),
      };
    },
  },
  updateCategory: {
    fixture: 'a category with 1 subcategory; a new description',
    async prepare({ company }) {
      const { categoryId } = await givenPlace(company);
      return {
        request: (run) => ({
          principal: company.principal,
          pathParameters: { categoryId },
          body: { description: `Description ${run}` },
        }),
      };
    },
  },
  createSubcategory: {
    fixture: 'a new name each run, no image',
    async prepare({ company }) {
      const categoryId = await givenCategory(company);
      return {
        request: () => ({
          principal: company.principal,
          pathParameters: { categoryId },
          body: { name: uniqueName('Sub'), description: 'Created by the benchmark' },
        }),
      };
    },
  },
  getSubcategory: {
    fixture: 'a subcategory without files',
    async prepare({ company, place }) {
      return {
        request: () => ({
          principal: company.principal,
          pathParameters: { companyId: company.tenantId, ...place },
        }),
      };
    },
  },
  updateSubcategory: {
    fixture: 'CHANGE of the description (JSON, no image)',
    async prepare({ company }) {
      const place = await givenPlace(company);
      return {
        request: (run) => ({
          principal: company.principal,
          pathParameters: { companyId: company.tenantId, ...place },
          body: { description: `Description ${run}` },
        }),
      };
    },
  },
  listObjects: {
    fixture: 'page 1 (20) of 25 objects',
    async prepare() {
      const company = await newCompany();
      const place = await givenPlace(company);
      for (let index = 0; index < 25; index++) await givenObject(company, place);
      return { request: () => ({ principal: company.principal }) };
    },
  },
  listSubcategoryObjects: {
    fixture: 'page 1 (20) of a subcategory with 25 objects',
    async prepare() {
      const company = await newCompany();
      const place = await givenPlace(company);
      for (let index = 0; index < 25; index++) await givenObject(company, place);
      return { request: () => ({ principal: company.principal, pathParameters: { ...place } }) };
    },
  },
  createObject: {
    fixture: 'a new externalId each run',
    async prepare({ company, place }) {
      return {
        request: () => ({
          principal: company.principal,
          pathParameters: { ...place },
          body: newObjectBody(),
        }),
      };
    },
  },
  getObject: {
    fixture: 'an object',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return { request: () => ({ principal: world.company.principal, pathParameters: { objectId } }) };
    },
  },
  getCompanyObject: {
    fixture: 'an object',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return {
        request: () => ({
          principal: world.company.principal,
          pathParameters: { companyId: world.company.tenantId, objectId },
        }),
      };
    },
  },
  updateObject: {
    fixture: 'action update, a new description each run',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return {
        request: (run) => ({
          principal: world.company.principal,
          pathParameters: { objectId },
          body: { action: 'update', description: `Run ${run}`, eventDescription: 'bench update' },
        }),
      };
    },
  },
  listObjectEvents: {
    fixture: 'an object with 5 events',
    async prepare(world) {
      const objectId = await objectWithUpdates(world, 4);
      return { request: () => ({ principal: world.company.principal, pathParameters: { objectId } }) };
    },
  },
  listCompanyEvents: {
    fixture: 'a company with an object of 5 events',
    async prepare(world) {
      await objectWithUpdates(world, 4);
      return { request: () => ({ principal: world.company.principal }) };
    },
  },
  verifyObject: {
    fixture: 'an object with 5 events',
    async prepare(world) {
      const objectId = await objectWithUpdates(world, 4);
      return { request: () => ({ principal: world.company.principal, pathParameters: { objectId } }) };
    },
  },
  listWallets: {
    fixture: 'an App with 3 wallets',
    async prepare() {
      const app = await newApp();
      for (let index = 0; index < 3; index++) await givenWallet(app);
      return { request: () => ({ principal: app.principal }) };
    },
  },
  createWallet: {
    fixture: 'a new username each run (scrypt hash)',
    slow: true,
    async prepare({ app }) {
      return {
        request: () => ({
          principal: app.principal,
          body: { username: `c-${randomUUID().slice(0, 12)}`, password: WALLET_PASSWORD },
        }),
      };
    },
  },
  walletLogin: {
    fixture: 'the right password (scrypt check)',
    slow: true,
    async prepare({ app }) {
      const username = `login-${randomUUID().slice(0, 8)}`;
      await givenWallet(app, username);
      return {
        request: () => ({ body: { username: `${username}@${app.tenantId}`, password: WALLET_PASSWORD } }),
      };
    },
  },
  getWallet: {
    fixture: 'a wallet',
    async prepare({ app }) {
      const walletId = await givenWallet(app);
      return { request: () => ({ principal: app.principal, pathParameters: { walletId } }) };
    },
  },
  updateWallet: {
    fixture: 'new metadata each run',
    async prepare({ app }) {
      const walletId = await givenWallet(app);
      return {
        request: (run) => ({
          principal: app.principal,
          pathParameters: { walletId },
          body: { metadata: { run } },
        }),
      };
    },
  },
  deleteWallet: {
    fixture: 'a new wallet each run (created untimed)',
    slow: true,
    async prepare({ app }) {
      return {
        request: async () => ({
          principal: app.principal,
          pathParameters: { walletId: await givenWallet(app) },
        }),
      };
    },
  },
  uploadFile: {
    fixture: 'a 2 KB PDF, multipart',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return {
        request: () => ({
          principal: world.company.principal,
          pathParameters: { companyId: world.company.tenantId, objectId },
          binaryBody: uploadBody(),
        }),
      };
    },
  },
  listFiles: {
    fixture: 'an object with 3 files',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      for (let index = 0; index < 3; index++) await givenFile(world.company, objectId);
      return {
        request: () => ({
          principal: world.company.principal,
          pathParameters: { companyId: world.company.tenantId, objectId },
        }),
      };
    },
  },
  downloadFile: {
    fixture: 'a 2 KB file, returned inline',
    async prepare(world) {
      const fileId = await givenFile(world.company, await givenObject(world.company, world.place));
      return {
        request: () => ({
          principal: world.company.principal,
          pathParameters: { companyId: world.company.tenantId, fileId },
        }),
      };
    },
  },
  deleteFile: {
    fixture: 'a new 2 KB file each run (uploaded untimed)',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return {
        request: async () => ({
          principal: world.company.principal,
          pathParameters: {
            companyId: world.company.tenantId,
            fileId: await givenFile(world.company, objectId),
          },
        }),
      };
    },
  },
  createUploadSession: {
    fixture: 'a 2 KB PDF announced',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      return {
        request: () => ({
          principal: world.company.principal,
          pathParameters: { companyId: world.company.tenantId, objectId },
          body: { fileName: 'large.pdf', mimeType: 'application/pdf', size: 2048 },
        }),
      };
    },
  },
  completeUploadSession: {
    fixture: 'a 2 KB PDF stored at the key of the presigned POST (session and bytes made untimed)',
    async prepare(world) {
      const objectId = await givenObject(world.company, world.place);
      const companyId = world.company.tenantId;
      return {
        async request() {
          const content = samplePdf(2048);
          const session = await invokeExpecting(withId('createUploadSession'), {
            principal: world.company.principal,
            pathParameters: { companyId, objectId },
            body: { fileName: 'large.pdf', mimeType: 'application/pdf', size: content.length },
          });
          const uploadId = session.body.uploadId as string;
          // What the client's POST to the presigned address would have stored, at the key it names.
          await putFileBytes(session.body.fields.key as string, content, 'application/pdf');
          return {
            principal: world.company.principal,
            pathParameters: { companyId, objectId, uploadId },
          };
        },
      };
    },
  },
  getMe: {
    fixture: "a company's key",
    async prepare(world) {
      return { request: () => ({ principal: world.company.principal }) };
    },
  },
  openapi: {
    fixture: 'no caller',
    async prepare() {
      return { request: () => ({ headers: { Host: '127.0.0.1' } }) };
    },
  },
  ...webhookOperationCases,
  ...accessOperationCases,
};

/** Second cases of an operation, each with a minimum of its own. */
const variantCases: Record<CaseVariant, OperationCaseOf & { operationId: MeasuredOperationId }> = {
  'createObject + Idempotency-Key': {
    operationId: 'createObject',
    fixture: 'a new externalId and a new Idempotency-Key each run',
    async prepare({ company, place }) {
      return {
        request: () => ({
          principal: company.principal,
          pathParameters: { ...place },
          body: newObjectBody(),
          headers: { 'Idempotency-Key': randomUUID() },
        }),
      };
    },
  },
};

/** Every case, in the table's order, each operation's variants after it. */
export const operationCases: OperationCase[] = (
  Object.keys(casesByOperation) as MeasuredOperationId[]
).flatMap((operationId) => [
  { key: operationId, operationId, ...casesByOperation[operationId] },
  ...(Object.keys(variantCases) as CaseVariant[])
    .filter((variant) => variantCases[variant].operationId === operationId)
    .map((variant) => ({ key: variant, ...variantCases[variant] })),
]);

/** The company, place and App every case may use. */
export async function buildCaseWorld(): Promise<CaseWorld> {
  const company = await newCompany('Bench operations');
  return { company, place: await givenPlace(company), app: await newApp('Bench operations app') };
}
