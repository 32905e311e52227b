/**
 * Calls to the Asset Registry API with the signed-in key. Every failure becomes an `ApiError`
 * carrying the API's own `code` and message (spec section 7), or a network failure in words.
 */
import type { Session } from './session';

export interface PageInfo {
  limit: number;
  offset: number;
  total: number;
  hasNext: boolean;
  hasPrevious: boolean;
  /** The next page's cursor (extension; null on the last page): send it back as `cursor`. */
  nextCursor?: string | null;
}
export interface Page<T> {
  data: T[];
  pagination: PageInfo;
}

export interface ValidationIssue {
  field: string;
  message: string;
  code: string;
}

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

type Query = Record<string, string | number | undefined>;

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    readonly session: Session,
  ) {}

  /** The URL of an API path with its query (empty values left out). */
  url(path: string, query: Query = {}): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') search.set(name, String(value));
    }
    const text = search.toString();
    return `${this.baseUrl}${path.replace(/^\//, '')}${text ? `?${text}` : ''}`;
  }

  /** Sends a request with the key; resolves with the answer, or throws `ApiError`. */
  async send(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { 'X-API-Key': this.session.apiKey };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch {
      throw new ApiError('The API could not be reached (network error or CORS refusal)', 0, 'NETWORK_ERROR');
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async json<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const response = await this.send(method, path, options);
    return (await response.json()) as T;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  async text(path: string, query?: Query): Promise<string> {
    return (await this.send('GET', path, { query })).text();
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as {
      error?: string;
      message?: string;
      code?: string;
      validationErrors?: ValidationIssue[];
      details?: Record<string, string[]>;
    };
    // Subcategory operations list their issues as `details` (field → messages) instead.
    const detailIssues = Object.entries(body.details ?? {}).flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [String(messages)]).map((message) => ({
        field,
        message,
        code: '',
      })),
    );
    return new ApiError(
      body.error ?? body.message ?? `HTTP ${response.status}`,
      response.status,
      body.code ?? `HTTP_${response.status}`,
      Array.isArray(body.validationErrors) ? body.validationErrors : detailIssues,
    );
  } catch {
    return new ApiError(
      `The API answered HTTP ${response.status}`,
      response.status,
      `HTTP_${response.status}`,
    );
  }
}

/** Finds which kind of key this is: a company's reads categories, an App's reads wallets. */
export async function probeKeyKind(baseUrl: string, apiKey: string): Promise<Session['kind']> {
  try {
    await new ApiClient(baseUrl, { apiKey, kind: 'company' }).get('v2/categories', { limit: 1 });
    return 'company';
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    await new ApiClient(baseUrl, { apiKey, kind: 'app' }).get('v2/wallets', { limit: 1 });
    return 'app';
  }
}
