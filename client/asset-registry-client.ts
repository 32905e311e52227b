/**
 * A typed client of the Asset Registry API: openapi-fetch over the types generated from the
 * OpenAPI document (`client/openapi-types.ts`, `npm run client`). Paths, parameters, bodies,
 * answers and error codes are typed per operation; files go as `Blob` (or `File`, which keeps
 * its name) in a plain object, sent as multipart/form-data, or a `Blob` as the whole body (with
 * its `Content-Type` header); downloads come back as bytes with `parseAs: 'arrayBuffer'`.
 *
 * @example
 * const api = createAssetRegistryClient({ baseUrl: 'http://127.0.0.1:3000', apiKey });
 * const { data, error } = await api.POST('/v2/categories', { body: { name: 'Vehicles' } });
 * if (error) console.log(error.code); // 'VALIDATION_ERROR' | 'CATEGORY_NAME_EXISTS' | ...
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './openapi-types.js';

export type { components, operations, paths };

/** The client: `GET`, `POST`, `PUT`, `DELETE` on the API's paths, typed by the document. */
export type AssetRegistryClient = Client<paths>;

export interface AssetRegistryClientOptions {
  /** The API's base URL: `http://127.0.0.1:3000` locally, the stack's `ApiUrl` output (with `/prod`) in AWS. */
  baseUrl: string;
  /** A company or App key, sent as `X-API-Key`. */
  apiKey?: string;
  /** A wallet's session token from `POST /v2/wallets/login`, sent as `Authorization: Bearer`. */
  walletToken?: string;
  /**
   * A person's token from the company's identity provider (its ID token), sent as
   * `Authorization: Bearer`: the person acts within their role (docs/people-sign-in.md).
   */
  personToken?: string;
  /** Another `fetch` (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A request body as sent: a `Blob` itself is the whole body (a file sent raw, with its
 * `Content-Type` header given in the call); an object holding a `Blob` (a file part) becomes
 * multipart/form-data (Blobs as files, other values as text, `undefined` and `null` left out);
 * anything else JSON.
 *
 * @example
 * serializeBody({ file: new File([bytes], 'a.png', { type: 'image/png' }), tags: 'front' }) // FormData
 * await api.POST('/v2/imports', { body: csvBlob, headers: { 'Content-Type': 'text/csv' } }); // the Blob
 */
export function serializeBody(body: unknown): string | FormData | Blob {
  if (body instanceof Blob) return body;
  if (
    body === null ||
    typeof body !== 'object' ||
    !Object.values(body).some((value) => value instanceof Blob)
  ) {
    return JSON.stringify(body);
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(name, value);
    else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

/**
 * Creates the client, with the caller's credential on every request.
 *
 * @example
 * const wallet = createAssetRegistryClient({ baseUrl, walletToken: login.token });
 * await wallet.GET('/v2/wallets/{walletId}', { params: { path: { walletId } } });
 */
export function createAssetRegistryClient(options: AssetRegistryClientOptions): AssetRegistryClient {
  const headers: Record<string, string> = {};
  if (options.apiKey) headers['X-API-Key'] = options.apiKey;
  const bearer = options.walletToken ?? options.personToken;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    bodySerializer: serializeBody,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
