/**
 * The `oidc-provider` configuration of the local identity provider (option names from the
 * library's `lib/helpers/defaults.js`): one public client, the web console, signing people in with
 * the authorization code flow and PKCE; ID tokens that carry `sub`, `name`, `email` and `roles`.
 */
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { claimsOf, demoPersonBySubject } from './demo-people.js';
import { memoryAdapter } from './memory-adapter.js';
import type { ProviderKeys } from './provider-files.js';
import { errorPage, pageSecurityHeaders, signedOutPage, signOutPage } from './sign-in-page.js';

/** The web console's client id, and so the audience of its people's ID tokens. */
export const CONSOLE_CLIENT_ID = 'asset-registry-console';

/** What the console asks for; `offline_access` is left out, so no refresh token is issued. */
export const CONSOLE_SCOPES = ['openid', 'profile', 'email', 'roles'];

/** The interaction path (sign-in page) of an authorization request. */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

const HOUR_SECONDS = 60 * 60;

export interface ProviderSettings {
  /** The console's origins (`http://127.0.0.1:<PORT>`, `http://localhost:<PORT>`). */
  consoleOrigins: readonly string[];
  /** The console page's path (`/console/`): where the provider sends people back. */
  consolePath: string;
  keys: ProviderKeys;
  /** The ID token's lifetime; the library's (one hour) when not given. */
  idTokenTtlSeconds?: number;
}

export function providerConfiguration(settings: ProviderSettings): Configuration {
  const consoleUris = settings.consoleOrigins.map((origin) => `${origin}${settings.consolePath}`);
  /** Our pages instead of the library's (which load a web font and ask to be replaced). */
  const render = (ctx: KoaContextWithOIDC, html: string) => {
    ctx.set(pageSecurityHeaders(settings.consoleOrigins));
    ctx.body = html;
  };
  return {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        // A page in a browser keeps no secret: PKCE protects its codes instead.
        token_endpoint_auth_method: 'none',
        redirect_uris: consoleUris,
        post_logout_redirect_uris: consoleUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        scope: CONSOLE_SCOPES.join(' '),
      },
    ],
    scopes: CONSOLE_SCOPES,
    claims: { openid: ['sub'], profile: ['name'], email: ['email'], roles: ['roles'] },
    // The API reads the person's name and roles from the ID token (the console sends it), not
    // from the userinfo endpoint: the code flow's ID token carries every granted claim.
    conformIdTokenClaims: false,
    clientBasedCORS: (_ctx, origin) => settings.consoleOrigins.includes(origin),
    cookies: { keys: settings.keys.cookieKeys },
    jwks: { keys: settings.keys.signingKeys },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // The console's sign-out ends the provider's session too, so that the next sign-in asks again.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => render(ctx, signOutPage(form)),
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => render(ctx, signedOutPage()),
      },
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    // The console is the provider's own first-party client: its scopes are granted at sign-in,
    // without a consent page.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(CONSOLE_SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, subject) {
      const person = demoPersonBySubject(subject);
      return person && { accountId: person.subject, claims: () => claimsOf(person) };
    },
    renderError: (ctx, out) => render(ctx, errorPage('Sign-in failed', out.error_description ?? out.error)),
    // The library's own lifetimes, said here so that it does not ask, at each token, to set them.
    ttl: {
      AccessToken: HOUR_SECONDS,
      AuthorizationCode: 60,
      IdToken: settings.idTokenTtlSeconds ?? HOUR_SECONDS,
      Interaction: HOUR_SECONDS,
      Session: 14 * 24 * HOUR_SECONDS,
      Grant: 14 * 24 * HOUR_SECONDS,
    },
  };
}
