/**
 * The web console in local mode: `/console/` serves the built files of `console/dist` from the
 * API's own origin, so the page needs no CORS, and `config.json` points it at that origin and
 * names the local identity provider people sign in with.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { CONSOLE_BUILD_FILES, CONSOLE_CONFIG_FILE, consoleDistDirectory } from '../console/build.js';

export const CONSOLE_PATH = '/console/';

/** Where the console signs people in (the `signIn` of its `config.json`). */
export interface ConsoleSignIn {
  issuer: string;
  clientId: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/**
 * What the page may load and call: its own origin only, and the identity provider's (its token
 * endpoint); the CDK stack sets the same policy with the API's origin.
 */
const consoleSecurityHeaders = (apiOrigin: string, signIn?: ConsoleSignIn): Record<string, string> => ({
  'Content-Security-Policy': `default-src 'self'; connect-src 'self' ${apiOrigin}${signIn ? ` ${new URL(signIn.issuer).origin}` : ''}; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action 'self'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});

/** Serves a console path (`/console`, `/console/...`); false when the path is not the console's. */
export async function serveConsoleFile(
  pathname: string,
  response: ServerResponse,
  signIn?: ConsoleSignIn,
): Promise<boolean> {
  if (pathname === CONSOLE_PATH.slice(0, -1)) {
    response.writeHead(301, { Location: CONSOLE_PATH }).end();
    return true;
  }
  if (!pathname.startsWith(CONSOLE_PATH)) return false;
  const name = pathname.slice(CONSOLE_PATH.length) || 'index.html';
  const headers = { ...consoleSecurityHeaders("'self'", signIn), 'Cache-Control': 'no-cache' };
  if (name === CONSOLE_CONFIG_FILE) {
    response.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES['.json'] });
    response.end(JSON.stringify({ apiBaseUrl: '/', ...(signIn ? { signIn } : {}) }));
    return true;
  }
  // Only the build's own files: no path from the request ever reaches the file system.
  if (!(CONSOLE_BUILD_FILES as readonly string[]).includes(name)) {
    response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    return true;
  }
  try {
    const body = await readFile(join(consoleDistDirectory, name));
    response.writeHead(200, {
      ...headers,
      'Content-Type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
    });
    response.end(body);
  } catch {
    response.writeHead(503, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('The console is not built: npm start builds it (console/build.ts).');
  }
  return true;
}
