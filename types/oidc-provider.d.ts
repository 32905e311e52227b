/**
 * The part of `oidc-provider` (9.x, which ships no types) that the local identity provider uses
 * (local/identity-provider/). Option names follow the library's `lib/helpers/defaults.js`.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): AccountClaims | Promise<AccountClaims>;
  }

  export interface ClientMetadata {
    client_id: string;
    token_endpoint_auth_method?: string;
    redirect_uris?: string[];
    post_logout_redirect_uris?: string[];
    response_types?: string[];
    grant_types?: string[];
    scope?: string;
    [metadata: string]: unknown;
  }

  export interface Client {
    clientId: string;
  }

  export class Grant {
    constructor(properties: { clientId: string; accountId: string });
    jti: string;
    exp?: number;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export interface Session {
    accountId?: string;
    grantIdFor(clientId: string): string | undefined;
  }

  /** The koa context the library hands to its helpers. */
  export interface KoaContextWithOIDC {
    body: unknown;
    set(headers: Record<string, string>): void;
    oidc: {
      client?: Client;
      session?: Session;
      params?: Record<string, unknown>;
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
  }

  export interface ErrorOut {
    error: string;
    error_description?: string;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface AdapterPayload {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
    [field: string]: unknown;
  }

  export interface Configuration {
    adapter?: (model: string) => Adapter;
    clients?: ClientMetadata[];
    claims?: Record<string, string[]>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    clientBasedCORS?: (ctx: KoaContextWithOIDC, origin: string, client: Client) => boolean;
    cookies?: { keys?: string[] };
    jwks?: { keys: Record<string, unknown>[] };
    pkce?: { required?: (ctx: KoaContextWithOIDC, client: Client) => boolean };
    features?: Record<string, { enabled: boolean; [option: string]: unknown }>;
    interactions?: {
      url?: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string | Promise<string>;
    };
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>;
    renderError?: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => void | Promise<void>;
    ttl?: Record<string, number>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    Grant: typeof Grant;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: { login?: { accountId: string } },
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export default Provider;
}
