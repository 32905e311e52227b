/**
 * The console's people sign-in (authorization code, PKCE S256, state and nonce, by oauth4webapi)
 * against a provider stood in for by `fetch`: the authorization URL, the single-use round trip in
 * `sessionStorage`, the code exchange with the verifier, the ID token's claims, the address bar
 * cleaned, and sign-out at the provider (no browser).
 */
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import type { SignInConfig } from '../../console/src/config';
import {
  addressWithoutCallback,
  authorizationUrl,
  completePersonSignIn,
  endSessionUrl,
  isSignInCallback,
} from '../../console/src/person-sign-in';
import { installSessionStorage } from '../support/session-storage';

const CONSOLE_PAGE = 'http://127.0.0.1:3000/console/';
/** The console's page as the person opened it, on a route. */
const consolePage = new URL(`${CONSOLE_PAGE}#/objects`);
const CLIENT_ID = 'asset-registry-console';

/** A provider's answers, per issuer (oauth4webapi reads discovery once per issuer and page). */
interface StandInProvider {
  config: SignInConfig;
  /** What the token endpoint received, form field by field. */
  tokenRequests: URLSearchParams[];
  /** The ID token's claims the next code exchange answers with (over iss, aud, sub, iat, exp). */
  nextClaims: JWTPayload;
}

let issuerCount = 0;

async function standInProvider({
  endSession = true,
  scopesSupported,
}: {
  endSession?: boolean;
  scopesSupported?: string[];
} = {}): Promise<StandInProvider> {
  const issuer = `http://127.0.0.1:${4100 + ++issuerCount}`;
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const provider: StandInProvider = {
    config: { issuer, clientId: CLIENT_ID },
    tokenRequests: [],
    nextClaims: {},
  };
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== issuer) throw new Error(`unexpected request to ${url}`);
    if (url.pathname === '/.well-known/openid-configuration')
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        ...(endSession ? { end_session_endpoint: `${issuer}/session/end` } : {}),
        ...(scopesSupported ? { scopes_supported: scopesSupported } : {}),
      });
    if (url.pathname === '/jwks') return json({ keys: [{ ...(await exportJWK(publicKey)), alg: 'RS256' }] });
    if (url.pathname === '/token') {
      provider.tokenRequests.push(new URLSearchParams(String(init?.body)));
      const claims = {
        iss: issuer,
        aud: CLIENT_ID,
        sub: 'demo-eddie',
        name: 'Eddie Editor',
        ...provider.nextClaims,
      };
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey);
      return json({ access_token: 'opaque', token_type: 'Bearer', expires_in: 600, id_token: idToken });
    }
    throw new Error(`unexpected path ${url.pathname}`);
  });
  return provider;
}

/** The provider's answer to the console: its page with `?code=&state=`. */
const callback = (parameters: Record<string, string>) =>
  new URL(`${CONSOLE_PAGE}?${new URLSearchParams(parameters)}`);

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

beforeEach(() => {
  installSessionStorage();
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe('the authorization request', () => {
  it('asks for a code with PKCE S256, a state and a nonce, back to the console page', async () => {
    // Prepare
    const provider = await standInProvider();
    // Act
    const url = await authorizationUrl(provider.config, consolePage);
    // Assess
    const query = Object.fromEntries(url.searchParams);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.config.issuer}/auth`);
    expect(query).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: CONSOLE_PAGE,
      response_type: 'code',
      scope: 'openid profile email roles',
      state: expect.stringMatching(/^[\w-]{40,}$/),
      nonce: expect.stringMatching(/^[\w-]{40,}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    // Only the round trip is stored: no token exists yet.
    expect(sessionStorage.length).toBe(1);
  });

  it("leaves out a scope the provider does not list (Cognito's: no roles)", async () => {
    // Prepare
    const provider = await standInProvider({ scopesSupported: ['openid', 'email', 'phone', 'profile'] });
    // Act
    const url = await authorizationUrl(provider.config, consolePage);
    // Assess
    expect(url.searchParams.get('scope')).toBe('openid profile email');
  });
});

describe('the callback', () => {
  it('exchanges the code with the verifier, checks the ID token and forgets the round trip', async () => {
    // Prepare
    const provider = await standInProvider();
    const request = await authorizationUrl(provider.config, consolePage);
    const state = request.searchParams.get('state') ?? '';
    provider.nextClaims = { nonce: request.searchParams.get('nonce') ?? '' };
    const answer = callback({ code: 'the-code', state });
    // Act
    const credential = await completePersonSignIn(provider.config, answer);
    // Assess
    expect(isSignInCallback(answer)).toBe(true);
    expect(credential).toEqual({
      kind: 'idToken',
      idToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      expiresAt: expect.any(Number),
    });
    expect(credential.kind === 'idToken' && credential.expiresAt - Date.now()).toBeGreaterThan(590_000);
    const [exchange] = provider.tokenRequests;
    expect(exchange?.get('code')).toBe('the-code');
    expect(exchange?.get('redirect_uri')).toBe(CONSOLE_PAGE);
    expect(s256(exchange?.get('code_verifier') ?? '')).toBe(request.searchParams.get('code_challenge'));
    expect(sessionStorage.length).toBe(0);
  });

  it('refuses an answer whose state is not the one sent, and the round trip cannot be replayed', async () => {
    // Prepare
    const provider = await standInProvider();
    const request = await authorizationUrl(provider.config, consolePage);
    const state = request.searchParams.get('state') ?? '';
    provider.nextClaims = { nonce: request.searchParams.get('nonce') ?? '' };
    // Act
    const forged = completePersonSignIn(provider.config, callback({ code: 'the-code', state: 'forged' }));
    await expect(forged).rejects.toThrow(/state/i);
    const replayed = completePersonSignIn(provider.config, callback({ code: 'the-code', state }));
    // Assess
    await expect(replayed).rejects.toThrow('This sign-in was not started in this tab, or was already used');
    expect(provider.tokenRequests).toHaveLength(0);
  });

  it.each([
    [
      'a nonce that is not the one sent',
      { nonce: 'another-nonce' },
      'unexpected ID Token "nonce" claim value',
    ],
    ['another audience', { aud: 'another-client' }, 'unexpected JWT "aud" (audience) claim value'],
    ['another issuer', { iss: 'http://127.0.0.1:9' }, 'unexpected JWT "iss" (issuer) claim value'],
  ])('refuses an ID token with %s', async (_case, claims, refusal) => {
    // Prepare
    const provider = await standInProvider();
    const request = await authorizationUrl(provider.config, consolePage);
    provider.nextClaims = { nonce: request.searchParams.get('nonce') ?? '', ...claims };
    const answer = callback({ code: 'the-code', state: request.searchParams.get('state') ?? '' });
    // Act
    const completion = completePersonSignIn(provider.config, answer);
    // Assess
    await expect(completion).rejects.toThrow(refusal);
  });

  it("passes on the provider's refusal (the person cancelled)", async () => {
    // Prepare
    const provider = await standInProvider();
    const request = await authorizationUrl(provider.config, consolePage);
    const answer = callback({ error: 'access_denied', state: request.searchParams.get('state') ?? '' });
    // Act
    const completion = completePersonSignIn(provider.config, answer);
    // Assess
    await expect(completion).rejects.toThrow(/authorization response/i);
    expect(provider.tokenRequests).toHaveLength(0);
  });
});

describe('addressWithoutCallback', () => {
  it("drops the provider's code and state from the address and keeps the route", () => {
    // Act
    const address = addressWithoutCallback(new URL(`${CONSOLE_PAGE}?code=the-code&state=s#/objects/1`));
    // Assess
    expect(address).toBe(`${CONSOLE_PAGE}#/objects/1`);
  });
});

describe('sign-out', () => {
  it("leads to the provider's end_session_endpoint with the client id and the way back, never the token", async () => {
    // Prepare
    const provider = await standInProvider();
    // Act
    const url = await endSessionUrl(provider.config, consolePage);
    // Assess
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      post_logout_redirect_uri: CONSOLE_PAGE,
      client_id: CLIENT_ID,
    });
  });

  it('stays in the console when the provider has no end_session_endpoint', async () => {
    // Prepare
    const provider = await standInProvider({ endSession: false });
    // Act
    const url = await endSessionUrl(provider.config, consolePage);
    // Assess
    expect(url).toBeUndefined();
  });

  it("goes to the config's signOutUrl with the client id and the console as logout_uri when the provider has no end_session_endpoint (Cognito)", async () => {
    // Prepare
    const provider = await standInProvider({ endSession: false });
    const signOutUrl = 'https://acme-123456789012.auth.eu-west-1.amazoncognito.com/logout';
    // Act
    const url = await endSessionUrl({ ...provider.config, signOutUrl }, consolePage);
    // Assess
    expect(`${url?.origin}${url?.pathname}`).toBe(signOutUrl);
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      client_id: CLIENT_ID,
      logout_uri: CONSOLE_PAGE,
    });
  });
});
