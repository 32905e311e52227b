/**
 * Where the API is, and where people sign in. The console fetches `config.json` beside its page:
 * `npm start` serves `{"apiBaseUrl": "/", "signIn": {...}}` (same origin, the local identity
 * provider), the CDK stack writes the API's stage URL. Without `signIn`, only the API-key
 * sign-in shows.
 */

/** The company's OpenID Connect provider and the console's client there. */
export interface SignInConfig {
  /** The issuer URL, as the provider's discovery document names it. */
  issuer: string;
  /** The console's public client id (the ID token's audience). */
  clientId: string;
  /**
   * Where signing out ends the provider's session when its discovery document names no
   * `end_session_endpoint` (Cognito's `/logout`, told `client_id` and `logout_uri`).
   */
  signOutUrl?: string;
}

export interface ConsoleConfig {
  /** Base URL ending in `/`; API paths (`v2/...`) are appended to it. */
  apiBaseUrl: string;
  signIn?: SignInConfig;
}

/** Whether the text is an absolute URL (`URL.canParse` is younger than the browsers the build targets). */
function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The config's fields, checked: throws with a readable message when one is malformed. */
export function parseConsoleConfig(config: Partial<Record<keyof ConsoleConfig, unknown>>): ConsoleConfig {
  if (typeof config.apiBaseUrl !== 'string') throw new Error("The console's config.json has no apiBaseUrl");
  const apiBaseUrl = config.apiBaseUrl.endsWith('/') ? config.apiBaseUrl : `${config.apiBaseUrl}/`;
  if (config.signIn === undefined || config.signIn === null) return { apiBaseUrl };
  const { issuer, clientId, signOutUrl } = config.signIn as Partial<Record<keyof SignInConfig, unknown>>;
  if (typeof issuer !== 'string' || !isUrl(issuer) || typeof clientId !== 'string' || clientId === '')
    throw new Error("The console's config.json has a signIn without a valid issuer URL and clientId");
  if (signOutUrl === undefined) return { apiBaseUrl, signIn: { issuer, clientId } };
  if (typeof signOutUrl !== 'string' || !isUrl(signOutUrl))
    throw new Error("The console's config.json has a signIn.signOutUrl that is not a URL");
  return { apiBaseUrl, signIn: { issuer, clientId, signOutUrl } };
}

/** Loads `config.json`; throws with a readable message when it is missing or malformed. */
export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch('./config.json', { cache: 'no-store' });
  if (!response.ok)
    throw new Error(`The console's config.json could not be loaded (HTTP ${response.status})`);
  return parseConsoleConfig((await response.json()) as Partial<Record<keyof ConsoleConfig, unknown>>);
}
