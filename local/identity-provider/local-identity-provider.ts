/**
 * The local identity provider of `npm start`: an OpenID Connect provider (`oidc-provider`, a
 * certified implementation) on `http://127.0.0.1:<port>`, whose sign-in page signs in the demo
 * people (docs/people-sign-in.md#signing-in-locally). Its port is {@link IDP_PORT_ENVIRONMENT}, else the
 * port of the data folder's last start while it is free (so that the issuer, and the principals
 * that name it, stay the same), else any free port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import {
  CONSOLE_CLIENT_ID,
  interactionPath,
  type ProviderSettings,
  providerConfiguration,
} from './provider-configuration.js';
import { IDP_PORT_ENVIRONMENT } from './provider-environment.js';
import { demoPassword, demoPasswordFile, providerKeys } from './provider-files.js';
import { checkSignIn, errorPage, pageSecurityHeaders, signInPage, WRONG_SIGN_IN } from './sign-in-page.js';

const LOOPBACK = '127.0.0.1';
/** A sign-in form is a login and a password: anything longer is refused unread. */
const MAX_FORM_BYTES = 4096;
const INTERACTION_ROUTE = /^\/interaction\/([\w-]+)$/;

export interface LocalIdentityProvider {
  issuer: string;
  clientId: string;
  /** Where the demo people's password is. */
  passwordFile: string;
  close(): Promise<void>;
}

export interface LocalIdentityProviderOptions
  extends Pick<ProviderSettings, 'consoleOrigins' | 'consolePath'> {
  dataDirectory: string;
  /** The port to take whatever happens ({@link IDP_PORT_ENVIRONMENT}). */
  port?: number;
  /** The port to take if it is free (the last start's), else any. */
  preferredPort?: number;
  idTokenTtlSeconds?: number;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(port, LOOPBACK, () => {
      server.off('error', fail);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

async function listenOnPort(server: Server, options: LocalIdentityProviderOptions): Promise<number> {
  if (options.port !== undefined) {
    try {
      return await listen(server, options.port);
    } catch (error) {
      throw new Error(
        `The identity provider cannot listen on ${LOOPBACK}:${options.port} (${IDP_PORT_ENVIRONMENT}): ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
  }
  if (options.preferredPort !== undefined) {
    try {
      return await listen(server, options.preferredPort);
    } catch {
      // taken by something else since: any free port, and a new issuer
    }
  }
  return listen(server, 0);
}

function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve, reject) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      request.resume();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        request.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

/** Starts the provider; rejects, with the reason, when it cannot listen. */
export async function startLocalIdentityProvider(
  options: LocalIdentityProviderOptions,
): Promise<LocalIdentityProvider> {
  const password = demoPassword(options.dataDirectory);
  /** Made once the port, and so the issuer, is known. */
  let provider: Provider | undefined;
  let providerCallback: ReturnType<Provider['callback']> | undefined;
  const headers = pageSecurityHeaders(options.consoleOrigins);

  const send = (response: ServerResponse, status: number, html: string) => {
    response.writeHead(status, headers).end(html);
  };

  /** The sign-in page (GET) and its form (POST) of one authorization request. */
  async function interact(
    provider: Provider,
    request: IncomingMessage,
    response: ServerResponse,
    uid: string,
  ): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'POST') {
      response.writeHead(405, { Allow: 'GET, POST' }).end();
      return;
    }
    const details = await provider.interactionDetails(request, response);
    // The console's scopes are granted with the sign-in (provider-configuration.ts), so that
    // signing in is the only step there is.
    if (details.uid !== uid || details.prompt.name !== 'login') {
      send(response, 400, errorPage('Sign-in failed', 'This sign-in step is not known here.'));
      return;
    }
    const action = interactionPath(uid);
    if (request.method === 'GET') return send(response, 200, signInPage({ action }));
    const form = await readForm(request);
    if (!form) return send(response, 400, errorPage('Sign-in failed', 'The sign-in form could not be read.'));
    const login = form.get('login') ?? '';
    const person = checkSignIn(login, form.get('password') ?? '', password);
    if (!person) return send(response, 200, signInPage({ action, login, error: WRONG_SIGN_IN }));
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: person.subject } },
      { mergeWithLastSubmission: false },
    );
  }

  const server = createServer((request, response) => {
    if (!provider || !providerCallback) {
      return send(response, 503, errorPage('Starting', 'The identity provider is starting: try again.'));
    }
    const uid = INTERACTION_ROUTE.exec(new URL(request.url ?? '/', 'http://provider').pathname)?.[1];
    if (uid === undefined) return providerCallback(request, response);
    interact(provider, request, response, uid).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      if ((error as { name?: string }).name === 'SessionNotFound') {
        // No interaction cookie (another browser, or an expired or finished sign-in).
        return send(response, 400, errorPage('Sign-in expired', 'Go back to the console and sign in again.'));
      }
      console.error(`Identity provider: ${error instanceof Error ? error.message : error}`);
      send(response, 500, errorPage('Sign-in failed', 'The identity provider failed: see npm start.'));
    });
  });
  const port = await listenOnPort(server, options);
  const issuer = `http://${LOOPBACK}:${port}`;
  try {
    provider = new Provider(
      issuer,
      providerConfiguration({
        consoleOrigins: options.consoleOrigins,
        consolePath: options.consolePath,
        keys: providerKeys(options.dataDirectory),
        idTokenTtlSeconds: options.idTokenTtlSeconds,
      }),
    );
    providerCallback = provider.callback();
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    issuer,
    clientId: CONSOLE_CLIENT_ID,
    passwordFile: demoPasswordFile(options.dataDirectory),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A browser's kept-alive connections would hold the server open.
        server.closeAllConnections();
      }),
  };
}
