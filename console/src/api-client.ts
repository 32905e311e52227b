/**
 * Calls to the Asset Registry API with the signed-in key, through `openapi-fetch` over the types
 * generated from the OpenAPI document (`client/openapi-types.ts`, `npm run client`): every path,
 * parameter and response is the document's, so the console holds no copy of an API shape (see
 * docs/console-code.md for why this and not the repository's typed client). Every failure
 * becomes an `ApiError` carrying the API's own `code` and message (spec section 7), or a
 * network failure in words.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../client/openapi-types';
import { type Credential, credentialHeaders, type Session } from './session';

/** The API's schemas, by their name in the document (`Schemas['Object']`, `Schemas['Wallet']`). */
export type Schemas = components['schemas'];
/** A page's pagination: the spec's, or the activity's, which does not count its total (`null`). */
export type PageInfo = Omit<Schemas['Pagination'], 'total'> & { total: number | null };
/** A list's response: one of the document's `...Page` schemas (`ObjectPage`, `WalletPage`, ...). */
export type ListResponse = Extract<Schemas[keyof Schemas], { pagination: PageInfo }>;

/** The query parameters of a `GET` path (`QueryOf<'/v2/objects'>`). */
export type QueryOf<Path extends keyof paths> = NonNullable<
  paths[Path] extends { get: { parameters: { query?: infer Query } } } ? Query : never
>;

type ValidationErrorBody = paths['/v2/categories']['get']['responses'][400]['content']['application/json'];
type ValidationIssue = NonNullable<ValidationErrorBody['validationErrors']>[number];

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly validationErrors: ValidationIssue[] = [],
  ) {
    super(message);
  }
}

/** The signed-in client: the typed API and the session it signs with. */
export interface ApiClient {
  api: Client<paths>;
  session: Session;
}

/** The typed API that sends the credential, never a cookie, and never reads a cached response. */
const apiWith = (baseUrl: string, credential: Credential): Client<paths> =>
  createClient<paths>({
    baseUrl,
    headers: credentialHeaders(credential),
    cache: 'no-store',
    credentials: 'omit',
  });

/**
 * The signed-in client. `onUnauthorized` hears every 401 the API answers a person's token: the
 * token has expired (or its provider was removed), and the person must sign in again.
 */
export function createApiClient(baseUrl: string, session: Session, onUnauthorized?: () => void): ApiClient {
  const api = apiWith(baseUrl, session.credential);
  if (session.credential.kind === 'idToken' && onUnauthorized)
    api.use({
      onResponse: ({ response }) => {
        if (response.status === 401) onUnauthorized();
      },
    });
  return { api, session };
}

/**
 * The data of a response, or throws `ApiError`: the API's error, or a network failure.
 *
 * @example
 * const wallet = await dataOf(client.api.GET('/v2/wallets/{walletId}', { params: { path: { walletId } } }));
 */
export async function dataOf<Data>(
  request: Promise<{ data?: Data; error?: unknown; response: Response }>,
): Promise<Data> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch {
    throw new ApiError('The API could not be reached (network error or CORS refusal)', 0, 'NETWORK_ERROR');
  }
  if (!result.response.ok) throw errorOf(result.response.status, result.error);
  return result.data as Data;
}

/** The API's error body (`error`, `code`, and `validationErrors` or, for subcategories, `details`). */
function errorOf(status: number, body: unknown): ApiError {
  if (typeof body !== 'object' || body === null)
    return new ApiError(`The API responded HTTP ${status}`, status, `HTTP_${status}`);
  const fields = body as Record<string, unknown>;
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);
  // Subcategory operations list their issues as `details` (field → messages) instead.
  const details = (typeof fields.details === 'object' && fields.details) || {};
  const detailIssues = Object.entries(details).flatMap(([field, messages]) =>
    (Array.isArray(messages) ? messages : [String(messages)]).map((message) => ({
      field,
      message: String(message),
      code: '',
    })),
  );
  return new ApiError(
    text('error') ?? text('message') ?? `HTTP ${status}`,
    status,
    text('code') ?? `HTTP_${status}`,
    Array.isArray(fields.validationErrors) ? (fields.validationErrors as ValidationIssue[]) : detailIssues,
  );
}

/**
 * Who the key or the person is (`GET /v2/me`): any valid credential may ask, whatever its
 * permissions, so sign-in probes no operation it may not call. A wallet's session is not a key,
 * and is refused here. A person browses their company.
 */
export async function signInWith(baseUrl: string, credential: Credential): Promise<Session> {
  const me = await dataOf(apiWith(baseUrl, credential).GET('/v2/me'));
  if (me.kind === 'wallet')
    throw new ApiError('A wallet signs in with its password, not here', 400, 'WALLET');
  return { credential, kind: me.kind === 'app' ? 'app' : 'company', me };
}
