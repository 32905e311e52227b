/**
 * A person's sign-in to the local identity provider over plain HTTP, as a browser would make it:
 * the authorization request with PKCE (oauth4webapi), the provider's redirects followed by hand
 * with a cookie jar of the sign-in's own, the sign-in form posted, and the code exchanged for
 * the ID token the console sends to the API.
 */
import * as oauth from 'oauth4webapi';
import { CONSOLE_SCOPES } from '../../local/identity-provider/provider-configuration';

/** `npm start`'s identity provider, as its stack state names it. */
export interface LocalProvider {
  issuer: string;
  clientId: string;
}

/** One browser's cookies for one host: name → value (paths are ignored: every path is sent). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const expired = attributes.some((attribute) => /^\s*expires=.*1970/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(separator + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Where an authorization request stands: the sign-in page (or another page) with its cookies. */
export interface SignInPage {
  status: number;
  html: string;
  url: URL;
  /** The last answer's redirect, if it was one (the console's address with the code, say). */
  location?: URL;
  jar: CookieJar;
}

/** Follows redirects from `url` (fetch's own would drop the cookies), up to an answer that is not one. */
async function follow(url: URL, jar: CookieJar, init: RequestInit = {}): Promise<SignInPage> {
  let current = url;
  let request = init;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(current, {
      ...request,
      redirect: 'manual',
      headers: { ...(request.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.keep(response);
    const location = response.headers.get('location');
    const html = await response.text();
    if (!location) return { status: response.status, html, url: current, jar };
    const next = new URL(location, current);
    // The provider's redirect back to the console ends the sign-in: the console is not called.
    if (next.origin !== current.origin)
      return { status: response.status, html, url: current, location: next, jar };
    current = next;
    request = {};
  }
  throw new Error(`More than 10 redirects from ${url}`);
}

export interface AuthorizationRequest {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  redirectUri: string;
  codeVerifier: string;
  state: string;
  nonce: string;
  /** The sign-in page the authorization request led to. */
  page: SignInPage;
}

const insecure = { [oauth.allowInsecureRequests]: true };

/** Starts a sign-in as the console does: discovery, then the authorization request, up to the sign-in page. */
export async function beginSignIn(
  provider: LocalProvider,
  redirectUri: string,
  jar = new CookieJar(),
): Promise<AuthorizationRequest> {
  const issuer = new URL(provider.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client: oauth.Client = { client_id: provider.clientId, token_endpoint_auth_method: 'none' };
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const authorizationUrl = new URL(as.authorization_endpoint ?? '');
  authorizationUrl.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: CONSOLE_SCOPES.join(' '),
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }).toString();
  const page = await follow(authorizationUrl, jar);
  return { as, client, redirectUri, codeVerifier, state, nonce, page };
}

/** The sign-in form's `action` on a page. */
const formAction = (page: SignInPage): URL => {
  const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1];
  if (!action) throw new Error(`No sign-in form on the page (${page.status}):\n${page.html}`);
  return new URL(action.replaceAll('&amp;', '&'), page.url);
};

/** Posts the sign-in form of the page, and follows the provider's redirects. */
export const submitSignIn = (page: SignInPage, login: string, password: string): Promise<SignInPage> =>
  follow(formAction(page), page.jar, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password }).toString(),
  });

/** Exchanges the code the provider sent back (with the PKCE verifier) for the tokens. */
async function exchangeCode(request: AuthorizationRequest, callback: URL) {
  const parameters = oauth.validateAuthResponse(request.as, request.client, callback, request.state);
  const response = await oauth.authorizationCodeGrantRequest(
    request.as,
    request.client,
    oauth.None(),
    parameters,
    request.redirectUri,
    request.codeVerifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(request.as, request.client, response, {
    expectedNonce: request.nonce,
    requireIdToken: true,
  });
}

/** A whole sign-in: the person's ID token (the provider's session cookies go to `jar`). */
export async function signInAs(
  provider: LocalProvider,
  redirectUri: string,
  login: string,
  password: string,
  jar = new CookieJar(),
): Promise<string> {
  const request = await beginSignIn(provider, redirectUri, jar);
  const signedIn = await submitSignIn(request.page, login, password);
  if (!signedIn.location)
    throw new Error(`The sign-in of ${login} did not return to the console:\n${signedIn.html}`);
  const tokens = await exchangeCode(request, signedIn.location);
  if (!tokens.id_token) throw new Error('No ID token');
  return tokens.id_token;
}

/**
 * Signs out of the provider as the console would (RP-initiated logout): the end-session request,
 * then its confirmation form; resolves with where the provider sent the browser back to.
 */
export async function signOut(
  provider: LocalProvider,
  jar: CookieJar,
  postLogoutRedirectUri: string,
): Promise<SignInPage> {
  const issuer = new URL(provider.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const endSession = new URL(as.end_session_endpoint ?? '');
  endSession.search = new URLSearchParams({
    client_id: provider.clientId,
    post_logout_redirect_uri: postLogoutRedirectUri,
  }).toString();
  const confirmation = await follow(endSession, jar);
  const action = /<form id="op.logoutForm" method="post" action="([^"]+)">/.exec(confirmation.html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmation.html)?.[1];
  if (!action || !xsrf) throw new Error(`No sign-out form (${confirmation.status}):\n${confirmation.html}`);
  return follow(new URL(action, confirmation.url), jar, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
}
