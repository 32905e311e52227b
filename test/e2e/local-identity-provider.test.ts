/**
 * The local identity provider of `npm start`, end to end over HTTP: its discovery document, a
 * person's sign-in with the authorization code flow and PKCE (the sign-in form posted as a
 * browser would, redirects followed by hand), the ID token sent to the API, the events it names
 * the person in, a viewer's refusals, and a wrong password's; then restarts, on the same port
 * and on another. The tests run in order and share the server.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/free-port';
import { CONSOLE_CLIENT_ID } from '../../local/identity-provider/provider-configuration';
import {
  IDP_ID_TOKEN_TTL_ENVIRONMENT,
  IDP_PORT_ENVIRONMENT,
} from '../../local/identity-provider/provider-environment';
import {
  type LocalServer,
  portAcceptsConnections,
  processesMentioning,
  runAdmin,
  settledWithin,
  startLocalServer,
} from '../support/local-server';
import {
  beginSignIn,
  CookieJar,
  type LocalProvider,
  signInAs,
  signOut,
  submitSignIn,
} from '../support/person-sign-in';

jest.setTimeout(180_000);

/** Shorter than the library's hour, to see the setting apply. */
const ID_TOKEN_TTL_SECONDS = 600;

interface StateWithProvider {
  identityProvider: LocalProvider & { companyId: string; passwordFile: string };
}

describe("npm start's identity provider signs people in to the API", () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-idp-'));
  let server: LocalServer;
  const servers: LocalServer[] = [];
  let provider: StateWithProvider['identityProvider'];
  let password = '';
  let consoleUrl = '';
  let editorToken = '';
  let viewerToken = '';
  let objectId = '';
  let providerPort = 0;

  /** `npm start` with the provider on `port`; `provider` is what its state file says. */
  async function start(port: number): Promise<void> {
    server = await startLocalServer({
      dataDirectory,
      port: servers[0]?.port,
      environment: {
        [IDP_PORT_ENVIRONMENT]: String(port),
        [IDP_ID_TOKEN_TTL_ENVIRONMENT]: String(ID_TOKEN_TTL_SECONDS),
      },
    });
    servers.push(server);
    ({ identityProvider: provider } = JSON.parse(
      readFileSync(join(dataDirectory, 'local-stack.json'), 'utf8'),
    ) as StateWithProvider);
  }

  /** Ctrl-C, as in a terminal; resolves once npm start has ended. */
  async function stop(): Promise<void> {
    server.signalGroup('SIGINT');
    if ((await settledWithin(server.exited, 30_000)) === 'timeout') throw new Error('npm start did not stop');
  }

  const listProviders = async () => {
    const result = await runAdmin(['list-identity-providers'], { port: server.port, dataDirectory });
    if (result.exitCode !== 0) throw new Error(`list-identity-providers: ${result.stderr}`);
    return JSON.parse(result.stdout).identityProviders as { issuer: string; companyId: string }[];
  };

  async function call(path: string, token: string, options: { method?: string; body?: unknown } = {}) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
  }

  beforeAll(async () => {
    providerPort = await freePort();
    await start(providerPort);
    password = readFileSync(provider.passwordFile, 'utf8').trim();
    consoleUrl = `${server.baseUrl}/console/`;
  });

  afterAll(async () => {
    for (const each of servers) await each.kill();
    for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('serves its discovery document on loopback at IDP_PORT, and keeps the password to its owner', async () => {
    // Act
    const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, unknown>;
    // Assess
    expect(provider.issuer).toBe(`http://127.0.0.1:${providerPort}`);
    expect(provider.clientId).toBe(CONSOLE_CLIENT_ID);
    expect(discovery).toMatchObject({
      issuer: provider.issuer,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: expect.arrayContaining(['code']),
      scopes_supported: expect.arrayContaining(['openid', 'profile', 'email', 'roles']),
      claims_supported: expect.arrayContaining(['sub', 'name', 'email', 'roles']),
    });
    expect(String(discovery.jwks_uri)).toMatch(new RegExp(`^${provider.issuer}/`));
    expect(password).toMatch(/^[\w-]{24}$/);
    expect(statSync(provider.passwordFile).mode & 0o777).toBe(0o600);
    expect(server.output()).toContain(`Identity provider: ${provider.issuer}`);
    expect(server.output()).toContain(`with the password in ${provider.passwordFile}`);
  });

  it("names the provider in the console's config.json, whose page may call it", async () => {
    // Act
    const response = await fetch(`${consoleUrl}config.json`);
    // Assess
    expect(await response.json()).toEqual({
      apiBaseUrl: '/',
      signIn: { issuer: provider.issuer, clientId: CONSOLE_CLIENT_ID },
    });
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(/connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ')).toContain(provider.issuer);
  });

  it("lets the console's origins, and no other, call its token endpoint from a page", async () => {
    // Prepare
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as {
      token_endpoint: string;
    };
    const exchangeFrom = (origin: string) =>
      fetch(discovery.token_endpoint, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'not-a-code',
          client_id: CONSOLE_CLIENT_ID,
          redirect_uri: consoleUrl,
          code_verifier: 'v'.repeat(43),
        }).toString(),
      });
    // Act
    const fromConsoles = await Promise.all(
      [server.baseUrl, `http://localhost:${server.port}`].map(exchangeFrom),
    );
    const fromElsewhere = await exchangeFrom('http://elsewhere.example');
    // Assess
    expect(fromConsoles.map((response) => response.headers.get('access-control-allow-origin'))).toEqual([
      server.baseUrl,
      `http://localhost:${server.port}`,
    ]);
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('signs the editor in with the code flow and PKCE: the ID token names her and her role', async () => {
    // Act
    editorToken = await signInAs(provider, consoleUrl, 'eddie@demo.example', password);
    // Assess
    const claims = JSON.parse(Buffer.from(editorToken.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({
      iss: provider.issuer,
      aud: CONSOLE_CLIENT_ID,
      sub: 'demo-eddie',
      name: 'Eddie Editor',
      email: 'eddie@demo.example',
      roles: ['editor'],
    });
    expect(claims.exp - claims.iat).toBe(ID_TOKEN_TTL_SECONDS);
  });

  it('GET /v2/me answers the person, her role and her principal', async () => {
    // Act
    const response = await call('/v2/me', editorToken);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      kind: 'person',
      id: provider.companyId,
      person: {
        principal: `user:demo-eddie@${new URL(provider.issuer).host}`,
        role: 'editor',
        name: 'Eddie Editor',
      },
    });
  });

  it("the editor's writes make events that name her", async () => {
    // Act
    const category = await call('/v2/categories', editorToken, {
      method: 'POST',
      body: { name: 'Vehicles' },
    });
    const subcategory = await call(`/v2/categories/${category.body?.id}/subcategories`, editorToken, {
      method: 'POST',
      body: { name: 'Vans' },
    });
    const created = await call(
      `/v2/categories/${category.body?.id}/subcategories/${subcategory.body?.data?.id}/objects`,
      editorToken,
      { method: 'POST', body: { externalId: 'VAN-1', name: 'Delivery van' } },
    );
    objectId = created.body?.id;
    const events = await call(`/v2/objects/${objectId}/events`, editorToken);
    // Assess
    expect([category.status, subcategory.status, created.status]).toEqual([201, 200, 201]);
    expect(events.status).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({
      principal: `user:demo-eddie@${new URL(provider.issuer).host}`,
      performedBy: 'Eddie Editor',
    });
  });

  it("refuses the viewer's write with 403 and answers her reads", async () => {
    // Prepare
    viewerToken = await signInAs(provider, consoleUrl, 'vera@demo.example', password);
    // Act
    const write = await call('/v2/categories', viewerToken, { method: 'POST', body: { name: 'Boats' } });
    const read = await call(`/v2/objects/${objectId}`, viewerToken);
    const me = await call('/v2/me', viewerToken);
    // Assess
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'COMPANY_ACCESS_DENIED' });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: objectId, externalId: 'VAN-1' });
    expect(me.body.person).toMatchObject({ role: 'viewer', name: 'Vera Viewer' });
  });

  it('shows the form again, with an error and no code, after a wrong password; the right one then signs in', async () => {
    // Prepare
    const request = await beginSignIn(provider, consoleUrl);
    // Act
    const refused = await submitSignIn(request.page, 'eddie@demo.example', `${password}x`);
    const accepted = await submitSignIn(refused, 'eddie@demo.example', password);
    // Assess
    expect(request.page.status).toBe(200);
    expect(request.page.html).toContain('name="password" type="password"');
    expect(refused.status).toBe(200);
    expect(refused.location).toBeUndefined();
    expect(refused.html).toContain('Wrong email or password.');
    expect(refused.html).toContain('value="eddie@demo.example"');
    expect(refused.html).toContain('<button type="submit">Sign in</button>');
    expect(`${accepted.location?.origin}${accepted.location?.pathname}`).toBe(consoleUrl);
    expect(accepted.location?.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('signs a person in again without the form while her session lasts, and asks again once she signed out', async () => {
    // Prepare
    const browser = new CookieJar();
    await signInAs(provider, consoleUrl, 'aude@demo.example', password, browser);
    // Act
    const again = await beginSignIn(provider, consoleUrl, browser);
    const signedOut = await signOut(provider, browser, consoleUrl);
    const afterSignOut = await beginSignIn(provider, consoleUrl, browser);
    // Assess
    expect(again.page.location?.searchParams.get('code')).toEqual(expect.any(String));
    expect(signedOut.location?.href).toBe(consoleUrl);
    expect(afterSignOut.page.location).toBeUndefined();
    expect(afterSignOut.page.html).toContain('name="password" type="password"');
  });

  it("leaves no warning or notice of the library in npm start's output after all of the above", () => {
    // Act
    const output = server.output();
    // Assess
    expect(output).toContain('Identity provider:');
    expect(output).not.toContain('oidc-provider');
  });

  it("list-identity-providers tells how to sign in through the local stack's own provider", async () => {
    // Act
    const result = await runAdmin(['list-identity-providers'], { port: server.port, dataDirectory });
    // Assess
    expect(result.exitCode).toBe(0);
    const { identityProviders } = JSON.parse(result.stdout);
    expect(identityProviders).toHaveLength(1);
    expect(identityProviders[0]).toMatchObject({
      issuer: provider.issuer,
      companyId: provider.companyId,
      audience: CONSOLE_CLIENT_ID,
      rolesClaim: 'roles',
      signIn: {
        consoleUrl,
        passwordFile: provider.passwordFile,
        people: expect.arrayContaining([
          { login: 'vera@demo.example', name: 'Vera Viewer', role: 'viewer' },
          { login: 'otto@auditors.example', name: 'Otto Outside', role: 'auditor' },
        ]),
      },
    });
  });

  it('stops with npm start, and is back on the same port after a restart, where tokens stay valid', async () => {
    // Prepare
    const before = provider;
    // Act
    await stop();
    const closed = !(await portAcceptsConnections(providerPort));
    await start(providerPort);
    const me = await call('/v2/me', editorToken);
    // Assess
    expect(closed).toBe(true);
    expect(provider).toEqual(before);
    expect(me.status).toBe(200);
    expect(me.body.person).toMatchObject({ role: 'editor', name: 'Eddie Editor' });
  });

  it('moves the demo company to the new issuer when the port changes, and refuses the old tokens', async () => {
    // Prepare
    const before = provider;
    const otherPort = await freePort();
    await stop();
    // Act
    await start(otherPort);
    const registered = await listProviders();
    const oldToken = await call('/v2/me', editorToken);
    const newToken = await call('/v2/me', await signInAs(provider, consoleUrl, 'ada@demo.example', password));
    // Assess
    expect(provider.issuer).toBe(`http://127.0.0.1:${otherPort}`);
    expect(provider.companyId).toBe(before.companyId);
    expect(registered.map(({ issuer, companyId }) => ({ issuer, companyId }))).toEqual([
      { issuer: provider.issuer, companyId: before.companyId },
    ]);
    expect(oldToken.status).toBe(401);
    expect(newToken.body.person).toMatchObject({
      principal: `user:demo-ada@127.0.0.1:${otherPort}`,
      role: 'admin',
    });
  });
});
