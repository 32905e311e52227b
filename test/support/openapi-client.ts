/**
 * An HTTP client that calls operations by their OpenAPI `operationId` (method and path come from
 * the document, so every call also proves the documented route is live) and checks every response
 * against the document: a documented status, and a body valid against its schema.
 */
import type { OpenApiDocument } from '../../lambdas/openapi/openapi-document';
import { ResponseValidator } from './openapi-validator';

export interface OperationCall {
  /** Values of the `{placeholders}` of the path, sent URL-encoded. */
  path?: Record<string, string>;
  query?: Record<string, string> | Array<[string, string]>;
  apiKey?: string;
  /** A wallet session token, sent as `Authorization: Bearer`. */
  bearer?: string;
  json?: unknown;
  form?: FormData;
  /** A body sent as it is. */
  raw?: { body: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
  /** Fails the call (as a hang) when no response came in this time. */
  timeoutMs?: number;
}

export interface OperationResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
  /** How the response differs from the document; empty when it is as documented. */
  problems: string[];
}

export class OpenApiClient {
  readonly validator: ResponseValidator;
  /** Every call made, with the status it got. */
  readonly calls: Array<{ operationId: string; status: number }> = [];
  /** Every difference from the document seen so far. */
  readonly problems: string[] = [];
  private readonly routes = new Map<string, { method: string; path: string }>();

  constructor(
    readonly baseUrl: string,
    readonly document: OpenApiDocument,
  ) {
    this.validator = new ResponseValidator(document);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        this.routes.set(operation.operationId, { method: method.toUpperCase(), path });
      }
    }
  }

  /** The documented method and path template of an operation. */
  routeOf(operationId: string): { method: string; path: string } {
    const route = this.routes.get(operationId);
    if (!route) throw new Error(`No operation ${operationId} in the document`);
    return route;
  }

  /** The request URL: the path template filled in, and the query string. */
  urlOf(operationId: string, call: Pick<OperationCall, 'path' | 'query'> = {}): string {
    const path = this.routeOf(operationId).path.replace(/\{([^}]+)\}/g, (_placeholder, name: string) => {
      const value = call.path?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const search = call.query ? new URLSearchParams(call.query).toString() : '';
    const query = search ? `?${search}` : '';
    return `${this.baseUrl}${path}${query}`;
  }

  async call(operationId: string, call: OperationCall = {}): Promise<OperationResponse> {
    const { method } = this.routeOf(operationId);
    const headers: Record<string, string> = { ...call.headers };
    if (call.apiKey !== undefined) headers['X-API-Key'] = call.apiKey;
    if (call.bearer !== undefined) headers.Authorization = `Bearer ${call.bearer}`;
    let body: RequestInit['body'];
    if (call.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.form) body = call.form;
    else if (call.raw) {
      if (call.raw.contentType) headers['Content-Type'] = call.raw.contentType;
      body = call.raw.body;
    }
    const response = await fetch(this.urlOf(operationId, call), {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const problems = this.validator.problemsOf(operationId, { status: response.status, contentType, text });
    this.calls.push({ operationId, status: response.status });
    this.problems.push(...problems);
    let parsed: unknown;
    if (contentType?.startsWith('application/json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: response.status, headers: response.headers, text, body: parsed, problems };
  }
}
