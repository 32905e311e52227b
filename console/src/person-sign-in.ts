/**
 * A person signs in through the company's OpenID Connect provider: the authorization code flow
 * with PKCE (S256), state and nonce, all by `oauth4webapi` (discovery, the authorization URL,
 * the callback's checks, the code exchange, the ID token's `iss`, `aud`, `exp` and `nonce`).
 * The redirect URI is the console's own page. The state, nonce and code verifier wait in
 * `sessionStorage` for the provider's answer only, and are removed as soon as it comes (each is
 * single-use); the ID token is handed to the caller to keep in memory, never stored. The console
 * asks for no refresh token (no `offline_access`): when the ID token expires, the person signs in
 * again (docs/people-sign-in.md, "The console's sign-in").
 */
import * as oauth from 'oauth4webapi';
import type { SignInConfig } from './config';
import type { Credential } from './session';

/**
 * What the console asks the provider for: the ID token's `name`, `email` and `roles`. A scope
 * other than `openid` is asked only when the provider lists it (or lists none): Cognito has no
 * `roles` scope and refuses a request that names one (its groups come in the ID token anyway).
 */
const SCOPES = ['openid', 'profile', 'email', 'roles'];

const scopeFor = (server: oauth.AuthorizationServer): string =>
  SCOPES.filter(
    (scope) => scope === 'openid' || !server.scopes_supported || server.scopes_supported.includes(scope),
  ).join(' ');
const ROUND_TRIP_KEY = 'asset-registry-console.sign-in-round-trip';

interface RoundTrip {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The console's own page, without query or fragment: where the provider sends the person back. */
const redirectUriOf = (page: URL): string => page.origin + page.pathname;

/** The page's address without the provider's answer (`?code=&state=`), its route (`#/...`) kept. */
export const addressWithoutCallback = (page: URL): string => redirectUriOf(page) + page.hash;

/**
 * Plain `http` is allowed for an issuer on loopback only (the local stack's provider, as the API
 * allows it there); anywhere else oauth4webapi refuses anything but `https`.
 */
const isLoopbackHttp = (issuer: URL): boolean =>
  issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);

const requestOptions = (config: SignInConfig) =>
  isLoopbackHttp(new URL(config.issuer)) ? { [oauth.allowInsecureRequests]: true } : {};

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

/** The provider's discovery document, read once per page. */
function discover(config: SignInConfig): Promise<oauth.AuthorizationServer> {
  let server = discovered.get(config.issuer);
  if (!server) {
    const issuer = new URL(config.issuer);
    server = oauth
      .discoveryRequest(issuer, requestOptions(config))
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    server.catch(() => discovered.delete(config.issuer));
    discovered.set(config.issuer, server);
  }
  return server;
}

/**
 * The provider's sign-in page for the console at `page`, with a fresh state, nonce and PKCE
 * challenge kept in `sessionStorage` for the way back.
 */
export async function authorizationUrl(config: SignInConfig, page: URL): Promise<URL> {
  const server = await discover(config);
  if (!server.authorization_endpoint) throw new Error('The identity provider has no authorization endpoint');
  const roundTrip: RoundTrip = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
  };
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUriOf(page),
    response_type: 'code',
    scope: scopeFor(server),
    state: roundTrip.state,
    nonce: roundTrip.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(roundTrip.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  sessionStorage.setItem(ROUND_TRIP_KEY, JSON.stringify(roundTrip));
  return url;
}

/** Whether the page's address is the provider's answer (`?code=&state=`, or `?error=&state=`). */
export const isSignInCallback = (url: URL): boolean =>
  url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));

/** Takes the round trip's state, nonce and verifier out of `sessionStorage`: they serve once. */
function takeRoundTrip(): RoundTrip | undefined {
  const stored = sessionStorage.getItem(ROUND_TRIP_KEY);
  sessionStorage.removeItem(ROUND_TRIP_KEY);
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as RoundTrip;
  } catch {
    return undefined;
  }
}

/**
 * Completes the sign-in from the provider's answer (the page's address, `callbackUrl`): checks
 * the state, exchanges the code with the verifier, checks the ID token's claims and nonce, and
 * returns the ID token with its expiry. The round trip is gone from `sessionStorage` whatever the
 * outcome; the caller cleans the address bar (`addressWithoutCallback`).
 */
export async function completePersonSignIn(config: SignInConfig, callbackUrl: URL): Promise<Credential> {
  const roundTrip = takeRoundTrip();
  if (!roundTrip)
    throw new Error('This sign-in was not started in this tab, or was already used: sign in again.');
  const server = await discover(config);
  const client: oauth.Client = { client_id: config.clientId };
  const parameters = oauth.validateAuthResponse(server, client, callbackUrl.searchParams, roundTrip.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    parameters,
    redirectUriOf(callbackUrl),
    roundTrip.codeVerifier,
    requestOptions(config),
  );
  const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: roundTrip.nonce,
    requireIdToken: true,
  });
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!tokens.id_token || !claims) throw new Error('The identity provider gave no ID token');
  return { kind: 'idToken', idToken: tokens.id_token, expiresAt: claims.exp * 1000 };
}

/**
 * Where signing out leads: the provider's `end_session_endpoint`, told the console's client id
 * and to come back to the console; else the config's `signOutUrl` (Cognito's `/logout`, which
 * takes the client id and `logout_uri`); undefined when there is neither (the console just
 * forgets the token). The ID token is not sent as `id_token_hint`: it is the API credential, and
 * a URL would leave it in the browser's history and the provider's logs (RP-Initiated Logout 1.0
 * lets `client_id` stand in for it; the provider then asks the person to confirm).
 */
export async function endSessionUrl(config: SignInConfig, page: URL): Promise<URL | undefined> {
  const server = await discover(config);
  if (!server.end_session_endpoint) {
    if (!config.signOutUrl) return undefined;
    const url = new URL(config.signOutUrl);
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('logout_uri', redirectUriOf(page));
    return url;
  }
  const url = new URL(server.end_session_endpoint);
  url.searchParams.set('post_logout_redirect_uri', redirectUriOf(page));
  url.searchParams.set('client_id', config.clientId);
  return url;
}
