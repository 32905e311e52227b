/**
 * Data for the browser tests, made as a user makes it: keys from the admin CLI, the rest over
 * HTTP through the API of the tier's `npm start`.
 */
import { runAdmin } from './local-server';

export interface SeededCompany {
  companyId: string;
  apiKey: string;
  /** The key that made the object's changes: the company's first key, or the clerk's. */
  clerk: { apiKey: string; keyId?: string; label?: string };
  categoryId: string;
  categoryName: string;
  subcategoryId: string;
  subcategoryName: string;
  object: { id: string; externalId: string; name: string };
}

/** Runs an admin command of the CLI and answers its JSON line. */
export async function admin(settings: { port: number; dataDirectory: string }, args: string[]) {
  const result = await runAdmin(args, settings);
  if (result.exitCode !== 0) throw new Error(`admin ${args[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

async function call(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown | FormData,
) {
  const form = body instanceof FormData;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'X-API-Key': apiKey,
      ...(body !== undefined && !form ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * A company with one category, one subcategory and one object that has `updates` more events
 * (transfers, a repair) and a text file. With `clerkLabel`, a key of that label (objects and
 * files) makes the updates and the upload, so that its events name a labelled key.
 */
export async function seedCompany(
  server: { port: number; dataDirectory: string; baseUrl: string },
  options: { label: string; updates?: number; clerkLabel?: string },
): Promise<SeededCompany> {
  const { companyId = '', apiKey = '' } = await admin(server, ['create-company', '--name', options.label]);
  const clerk = options.clerkLabel
    ? await admin(server, [
        'create-key',
        '--company',
        companyId,
        '--permissions',
        'objects:write,files:write',
        '--label',
        options.clerkLabel,
      ])
    : { apiKey };
  const clerkKey = clerk.apiKey ?? apiKey;
  const categoryName = `${options.label} vehicles`;
  const category = await call(server.baseUrl, apiKey, 'POST', '/v2/categories', { name: categoryName });
  const subcategoryName = `${options.label} trucks`;
  const subcategory = await call(
    server.baseUrl,
    apiKey,
    'POST',
    `/v2/categories/${category.id}/subcategories`,
    {
      name: subcategoryName,
    },
  );
  const subcategoryId = subcategory.data.id as string;
  const externalId = `${options.label}-VIN-0001`;
  const object = await call(
    server.baseUrl,
    apiKey,
    'POST',
    `/v2/categories/${category.id}/subcategories/${subcategoryId}/objects`,
    { externalId, name: `${options.label} truck`, owner: 'Alice', metadata: { colour: 'red', axles: 3 } },
  );
  for (let index = 0; index < (options.updates ?? 2); index++) {
    await call(
      server.baseUrl,
      clerkKey,
      'PUT',
      `/v2/objects/${object.id}`,
      index % 2 === 0
        ? { action: 'transfer', owner: `Owner ${index + 1}`, performedBy: 'Registry clerk' }
        : { action: 'repair', eventDescription: `Service ${index + 1}`, performedBy: 'Garage' },
    );
  }
  const form = new FormData();
  form.append('file', new Blob(['service log\n'], { type: 'text/plain' }), 'service-log.txt');
  form.append('description', 'Service log');
  await call(server.baseUrl, clerkKey, 'POST', `/v2/companies/${companyId}/objects/${object.id}/files`, form);
  return {
    companyId,
    apiKey,
    clerk: { apiKey: clerkKey, keyId: clerk.keyId, label: clerk.label },
    categoryId: category.id,
    categoryName,
    subcategoryId,
    subcategoryName,
    object: { id: object.id, externalId, name: `${options.label} truck` },
  };
}

/** A new App and its key. */
export async function seedApp(server: { port: number; dataDirectory: string }, label: string) {
  const { appId = '', apiKey = '' } = await admin(server, ['create-app', '--name', label]);
  return { appId, apiKey };
}
