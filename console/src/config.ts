/**
 * Where the API is. The console fetches `config.json` beside its page: `npm start` serves
 * `{"apiBaseUrl": "/"}` (same origin), the CDK stack writes the API's stage URL.
 */
export interface ConsoleConfig {
  /** Base URL ending in `/`; API paths (`v2/...`) are appended to it. */
  apiBaseUrl: string;
}

/** Loads `config.json`; throws with a readable message when it is missing or malformed. */
export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch('./config.json', { cache: 'no-store' });
  if (!response.ok)
    throw new Error(`The console's config.json could not be loaded (HTTP ${response.status})`);
  const config = (await response.json()) as Partial<ConsoleConfig>;
  if (typeof config.apiBaseUrl !== 'string') throw new Error("The console's config.json has no apiBaseUrl");
  return { apiBaseUrl: config.apiBaseUrl.endsWith('/') ? config.apiBaseUrl : `${config.apiBaseUrl}/` };
}
