/**
 * What the scenarios act on, built through the real code: tenants with real API keys (so the
 * same callers work through the local gateway), and categories, subcategories, objects,
 * wallets and files created by their handlers in process.
 */
import { randomUUID } from 'node:crypto';
import { createApp, createCompany } from '../../lambdas/domain/identity/tenants';
import { operations } from '../../lambdas/operations';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS, type Principal } from '../../lambdas/shared/principal';
import { invokeExpecting, multipartBody, samplePdf } from './handler-calls';

export interface Tenant {
  tenantId: string;
  apiKey: string;
  principal: Principal;
}

const withId = <K extends keyof typeof operations>(id: K) => operations[id];

export async function newCompany(name = 'Bench company'): Promise<Tenant> {
  const { tenantId, keyId, apiKey } = await createCompany(name);
  return {
    tenantId,
    apiKey,
    principal: { type: 'company', tenantId, keyId, permissions: new Set(COMPANY_PERMISSIONS) },
  };
}

export async function newApp(name = 'Bench app'): Promise<Tenant> {
  const { tenantId, keyId, apiKey } = await createApp(name);
  return {
    tenantId,
    apiKey,
    principal: { type: 'app', tenantId, keyId, permissions: new Set(APP_PERMISSIONS) },
  };
}

export const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

export async function givenCategory(company: Tenant, name = uniqueName('Category')): Promise<string> {
  const response = await invokeExpecting(withId('createCategory'), {
    principal: company.principal,
    body: { name, description: 'A category of the benchmark' },
  });
  return response.body.id as string;
}

export async function givenSubcategory(company: Tenant, categoryId: string): Promise<string> {
  const response = await invokeExpecting(withId('createSubcategory'), {
    principal: company.principal,
    pathParameters: { categoryId },
    body: { name: uniqueName('Subcategory'), description: 'A subcategory of the benchmark' },
  });
  return response.body.data.id as string;
}

export interface Place {
  categoryId: string;
  subcategoryId: string;
}

/** A category with one subcategory. */
export async function givenPlace(company: Tenant): Promise<Place> {
  const categoryId = await givenCategory(company);
  return { categoryId, subcategoryId: await givenSubcategory(company, categoryId) };
}

/** The body of a new object; `externalId` unique. */
export const newObjectBody = (label = randomUUID()) => ({
  externalId: `BENCH-${label}`,
  name: `Bench object ${label.slice(0, 8)}`,
  description: 'An asset of ordinary description length, created by the benchmark.',
  owner: 'Warehouse 7',
  metadata: { serial: `SN-${label.slice(0, 8)}`, location: 'Aisle 4' },
});

export async function givenObject(company: Tenant, place: Place): Promise<string> {
  const response = await invokeExpecting(withId('createObject'), {
    principal: company.principal,
    pathParameters: { ...place },
    body: newObjectBody(),
  });
  return response.body.id as string;
}

export const WALLET_PASSWORD = 'bench password 1';

export async function givenWallet(app: Tenant, username = `w-${randomUUID().slice(0, 12)}`): Promise<string> {
  const response = await invokeExpecting(withId('createWallet'), {
    principal: app.principal,
    body: { username, password: WALLET_PASSWORD, metadata: { purpose: 'bench' } },
  });
  return response.body.id as string;
}

/** A small upload as the multipart body of `uploadFile`. */
export const uploadBody = () =>
  multipartBody(
    { description: 'Bench file', tags: 'bench,pdf' },
    { field: 'file', fileName: 'bench.pdf', contentType: 'application/pdf', content: samplePdf() },
  );

export async function givenFile(company: Tenant, objectId: string): Promise<string> {
  const response = await invokeExpecting(withId('uploadFile'), {
    principal: company.principal,
    pathParameters: { companyId: company.tenantId, objectId },
    binaryBody: uploadBody(),
  });
  return response.body.id as string;
}
