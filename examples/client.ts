/**
 * The typed client (`client/`) end to end: a category, a subcategory, an object in it, a small
 * file attached to the object, and the object's ledger events. Run it against `npm start` (or a
 * deployment's `ApiUrl`) with a company key:
 *
 *   API_URL=http://127.0.0.1:3000 API_KEY=... COMPANY_ID=... npx tsx examples/client.ts
 *
 * `COMPANY_ID` is needed by the file paths (`/v2/companies/{companyId}/...`); the admin CLI's
 * `create-company` prints it with the key. Every name gets a suffix of the current time, so the
 * script can run again against the same company.
 */
import { createAssetRegistryClient } from '../client/asset-registry-client.js';

/** A variable the script cannot run without. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (see the comment at the top of examples/client.ts)`);
  return value;
}

/** The response's data, or an error naming the failed call and the API's code. */
function dataOf<T>(call: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${call}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function main(): Promise<void> {
  const companyId = required('COMPANY_ID');
  const api = createAssetRegistryClient({ baseUrl: required('API_URL'), apiKey: required('API_KEY') });
  const suffix = Date.now().toString(36);

  const category = dataOf(
    'create category',
    await api.POST('/v2/categories', { body: { name: `Tools ${suffix}` } }),
  );
  const subcategory = dataOf(
    'create subcategory',
    await api.POST('/v2/categories/{categoryId}/subcategories', {
      params: { path: { categoryId: category.id } },
      body: { name: 'Drills' },
    }),
  ).data;
  const object = dataOf(
    'create object',
    await api.POST('/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects', {
      params: { path: { categoryId: category.id, subcategoryId: subcategory.id } },
      body: { externalId: `DRILL-${suffix}`, name: 'Cordless drill', owner: 'Workshop' },
    }),
  );
  console.log(`object ${object.externalId} in ${category.name}`);

  // A File in a plain object goes as multipart/form-data, with its name and type.
  const manual = new File(['Charge for 2 hours before first use.\n'], 'manual.txt', { type: 'text/plain' });
  const file = dataOf(
    'upload file',
    await api.POST('/v2/companies/{companyId}/objects/{objectId}/files', {
      params: { path: { companyId, objectId: object.id } },
      body: { file: manual, description: 'Manual', tags: 'manual' },
    }),
  );
  console.log(`file ${file.originalFileName} (${file.mimeType}, ${file.size} bytes)`);

  const events = dataOf(
    'list events',
    await api.GET('/v2/objects/{objectId}/events', { params: { path: { objectId: object.id } } }),
  );
  console.log(`events: ${events.data.map((event) => event.action).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
