/**
 * One HTTP call to a running API, as an e2e test makes it: an API key or a bearer token, a JSON
 * body, and the answer's status, headers and parsed JSON body.
 */
export interface JsonCallOptions {
  method?: string;
  apiKey?: string;
  /** Sent as `Authorization: Bearer <bearer>` (a wallet's session token, a person's ID token). */
  bearer?: string;
  body?: unknown;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

/**
 * @example
 * const me = await jsonCall(server.baseUrl, '/v2/me', { bearer: idToken }); // { status: 200, body: { kind: 'person', ... } }
 */
export async function jsonCall(
  baseUrl: string,
  path: string,
  options: JsonCallOptions = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined) headers['X-API-Key'] = options.apiKey;
  if (options.bearer !== undefined) headers.Authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
