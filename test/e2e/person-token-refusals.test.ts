/**
 * End to end, what the API refuses of people's tokens (issue 28, item 7): `npm start`, two
 * companies from the admin CLI, each with a test OpenID provider of its own on loopback
 * (`add-identity-provider`), data made with the companies' API keys; then each bad token gets
 * 401 (or 403) with the spec's error body, through the real authorizer and handlers, and leaves
 * the data as it was. Last, `remove-identity-provider` refuses the removed provider's tokens at
 * once. The tests of this file share the server and run in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLOCK_SKEW_SECONDS, PERSON_TOKEN_REFUSALS } from '../../lambdas/domain/identity/person-tokens';
import { type JsonCallOptions, jsonCall } from '../support/json-call';
import { type LocalServer, runAdmin, startLocalServer } from '../support/local-server';
import {
  addIdentityProviderArguments,
  startTestIdentityProvider,
  TEST_PROVIDER_AUDIENCE,
  type TestClaims,
  type TestIdentityProvider,
} from '../support/test-identity-provider';

jest.setTimeout(180_000);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One company of the test: its key, its provider, and the object made with its key. */
interface Company {
  id: string;
  apiKey: string;
  provider: TestIdentityProvider;
  categoryId: string;
  subcategoryId: string;
  objectId: string;
}

describe("people's tokens that the API refuses, over HTTP", () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-person-tokens-'));
  let server: LocalServer;
  let companyA: Company;
  let companyB: Company;
  /** A provider no company registered. */
  let unregistered: TestIdentityProvider;
  /** Registered for company A, but its discovery document names another issuer. */
  let impostor: TestIdentityProvider;

  /** Status and body only: the tests compare whole answers. */
  const call = async (path: string, options?: JsonCallOptions) => {
    const { status, body } = await jsonCall(server.baseUrl, path, options);
    return { status, body };
  };

  async function admin(args: string[]) {
    const result = await runAdmin(args, { port: server.port, dataDirectory });
    if (result.exitCode !== 0) throw new Error(`admin ${args[0]}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  }

  async function givenCompany(name: string, provider: TestIdentityProvider, providerArgs: string[]) {
    const { companyId, apiKey } = await admin(['create-company', '--name', name]);
    await admin(addIdentityProviderArguments(companyId, provider.issuer, ...providerArgs));
    const category = await call('/v2/categories', {
      method: 'POST',
      apiKey,
      body: { name: `${name} tools` },
    });
    const categoryId = category.body.id;
    const subcategory = await call(`/v2/categories/${categoryId}/subcategories`, {
      method: 'POST',
      apiKey,
      body: { name: 'Drills' },
    });
    const subcategoryId = subcategory.body.data.id;
    const object = await call(`/v2/categories/${categoryId}/subcategories/${subcategoryId}/objects`, {
      method: 'POST',
      apiKey,
      body: { externalId: `${name}-1`, name: `${name} drill` },
    });
    return {
      id: companyId,
      apiKey,
      provider,
      categoryId,
      subcategoryId,
      objectId: object.body.id,
    } as Company;
  }

  /** What a company's key sees of its objects: each one's id and event count. */
  async function objectsOf(company: Company) {
    const listed = await call('/v2/objects?status=all&limit=100', { apiKey: company.apiKey });
    return listed.body.data.map((object: { id: string; eventCount: number; lastTxId: string }) => ({
      id: object.id,
      eventCount: object.eventCount,
      lastTxId: object.lastTxId,
    }));
  }

  /** Claims of a token of company A's provider for a person with these roles. */
  const personClaims = (claims: TestClaims = {}): TestClaims => ({
    aud: TEST_PROVIDER_AUDIENCE,
    sub: 'person-a',
    name: 'Pat Person',
    roles: ['editor'],
    ...claims,
  });

  /** A read and two writes (create an object, update A's object) with the token. */
  async function readAndWritesWith(token: string) {
    return Promise.all([
      call('/v2/objects', { bearer: token }),
      call(`/v2/categories/${companyA.categoryId}/subcategories/${companyA.subcategoryId}/objects`, {
        method: 'POST',
        bearer: token,
        body: { externalId: `refused-${Date.now()}`, name: 'Refused' },
      }),
      call(`/v2/objects/${companyA.objectId}`, {
        method: 'PUT',
        bearer: token,
        body: { action: 'update', description: 'Refused' },
      }),
    ]);
  }

  let objectsBefore: { a: unknown; b: unknown };

  beforeAll(async () => {
    server = await startLocalServer({ dataDirectory });
    const [providerA, providerB] = await Promise.all([
      startTestIdentityProvider(),
      startTestIdentityProvider(),
    ]);
    [unregistered, impostor] = await Promise.all([
      startTestIdentityProvider(),
      startTestIdentityProvider({ announcedIssuer: 'https://idp.example.com' }),
    ]);
    companyA = await givenCompany('Acme', providerA, []);
    companyB = await givenCompany('Bolt', providerB, [
      '--roles-claim',
      'groups',
      '--role',
      'asset-editors=editor',
      '--role',
      'asset-viewers=viewer',
    ]);
    await admin(addIdentityProviderArguments(companyA.id, impostor.issuer));
    objectsBefore = { a: await objectsOf(companyA), b: await objectsOf(companyB) };
  });

  afterAll(async () => {
    await server?.kill();
    await Promise.all(
      [companyA?.provider, companyB?.provider, unregistered, impostor].map((provider) => provider?.close()),
    );
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it("accepts company A's editor, and a token that expired within the skew", async () => {
    // Prepare
    const fresh = await companyA.provider.mintTestToken({ claims: personClaims() });
    const withinSkew = await companyA.provider.mintTestToken({
      claims: personClaims({ exp: nowSeconds() - CLOCK_SKEW_SECONDS / 2 }),
    });
    // Act
    const me = await call('/v2/me', { bearer: fresh });
    const listed = await call('/v2/objects', { bearer: withinSkew });
    // Assess
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      kind: 'person',
      id: companyA.id,
      person: { principal: `user:person-a@${new URL(companyA.provider.issuer).host}`, role: 'editor' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((object: { id: string }) => object.id)).toEqual([companyA.objectId]);
  });

  describe('401 with the reason, and nothing changed, for', () => {
    const cases: ReadonlyArray<[string, () => Promise<string>, string]> = [
      [
        `a token that expired more than ${CLOCK_SKEW_SECONDS} s ago`,
        () =>
          companyA.provider.mintTestToken({
            claims: personClaims({ exp: nowSeconds() - CLOCK_SKEW_SECONDS - 10 }),
          }),
        PERSON_TOKEN_REFUSALS.expired,
      ],
      [
        'a token not valid for another 120 s',
        () => companyA.provider.mintTestToken({ claims: personClaims({ nbf: nowSeconds() + 120 }) }),
        PERSON_TOKEN_REFUSALS.notYetValid,
      ],
      [
        'a token for another audience',
        () => companyA.provider.mintTestToken({ claims: personClaims({ aud: 'someone-else' }) }),
        PERSON_TOKEN_REFUSALS.audience,
      ],
      [
        'a token of an issuer no company registered',
        () => unregistered.mintTestToken({ claims: personClaims() }),
        PERSON_TOKEN_REFUSALS.unknownIssuer,
      ],
      [
        'a token of a registered issuer whose discovery document names another issuer',
        () => impostor.mintTestToken({ claims: personClaims() }),
        PERSON_TOKEN_REFUSALS.discoveryMismatch,
      ],
      [
        "a token of company B's provider that claims company A's issuer",
        () =>
          companyB.provider.mintTestToken({
            claims: personClaims({ iss: companyA.provider.issuer }),
            header: { kid: companyA.provider.keyIds.RS256 },
          }),
        PERSON_TOKEN_REFUSALS.signature,
      ],
      [
        'a token whose kid the provider does not publish',
        () => companyA.provider.mintTestToken({ claims: personClaims(), header: { kid: 'unknown-key' } }),
        PERSON_TOKEN_REFUSALS.unknownKey,
      ],
      [
        'an unsigned token (alg none)',
        async () => companyA.provider.mintUnsignedTestToken(personClaims()),
        PERSON_TOKEN_REFUSALS.algorithm,
      ],
      [
        "an HS256 token keyed with the provider's public key (PEM)",
        () => companyA.provider.mintPublicKeyHmacTestToken('pem', personClaims()),
        PERSON_TOKEN_REFUSALS.algorithm,
      ],
      [
        "an HS256 token keyed with the provider's public key (JWK)",
        () => companyA.provider.mintPublicKeyHmacTestToken('jwk', personClaims()),
        PERSON_TOKEN_REFUSALS.algorithm,
      ],
      [
        'a token without sub',
        () => companyA.provider.mintTestToken({ claims: personClaims({ sub: undefined }) }),
        PERSON_TOKEN_REFUSALS.claims,
      ],
    ];

    it.each(cases)('%s', async (_name, mint, reason) => {
      // Prepare
      const token = await mint();
      // Act
      const responses = await readAndWritesWith(token);
      const objectsAfter = { a: await objectsOf(companyA), b: await objectsOf(companyB) };
      // Assess
      for (const response of responses) {
        expect(response).toEqual({
          status: 401,
          body: { error: reason, code: 'UNAUTHORIZED', timestamp: expect.stringMatching(ISO_UTC) },
        });
      }
      expect(objectsAfter).toEqual(objectsBefore);
    });
  });

  it("keeps company A's editor out of company B's data", async () => {
    // Prepare
    const token = await companyA.provider.mintTestToken({ claims: personClaims() });
    // Act
    const read = await call(`/v2/objects/${companyB.objectId}`, { bearer: token });
    const readAtB = await call(`/v2/companies/${companyB.id}/objects/${companyB.objectId}`, {
      bearer: token,
    });
    const update = await call(`/v2/objects/${companyB.objectId}`, {
      method: 'PUT',
      bearer: token,
      body: { action: 'update', description: 'Crossed over' },
    });
    const create = await call(
      `/v2/categories/${companyB.categoryId}/subcategories/${companyB.subcategoryId}/objects`,
      { method: 'POST', bearer: token, body: { externalId: 'crossed-1', name: 'Crossed' } },
    );
    const listed = await call('/v2/objects?status=all', { bearer: token });
    const objectsAfter = { a: await objectsOf(companyA), b: await objectsOf(companyB) };
    // Assess
    expect(read.status).toBe(404);
    expect(readAtB.status).toBe(403);
    expect(readAtB.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect(update.status).toBe(404);
    expect(create.status).toBe(404);
    expect(listed.body.data.map((object: { id: string }) => object.id)).toEqual([companyA.objectId]);
    expect(objectsAfter).toEqual(objectsBefore);
  });

  it("refuses a viewer's writes with 403 and creates nothing", async () => {
    // Prepare
    const token = await companyB.provider.mintTestToken({
      claims: { aud: TEST_PROVIDER_AUDIENCE, sub: 'viewer-b', groups: ['staff', 'asset-viewers'] },
    });
    // Act
    const listed = await call('/v2/objects', { bearer: token });
    const create = await call(
      `/v2/categories/${companyB.categoryId}/subcategories/${companyB.subcategoryId}/objects`,
      { method: 'POST', bearer: token, body: { externalId: 'viewer-1', name: 'By a viewer' } },
    );
    const update = await call(`/v2/objects/${companyB.objectId}`, {
      method: 'PUT',
      bearer: token,
      body: { action: 'update', description: 'By a viewer' },
    });
    const objectsAfter = { a: await objectsOf(companyA), b: await objectsOf(companyB) };
    // Assess
    expect(listed.status).toBe(200);
    for (const response of [create, update]) {
      expect(response).toEqual({
        status: 403,
        body: {
          error: 'The role viewer lacks the permission objects:write',
          code: 'COMPANY_ACCESS_DENIED',
          timestamp: expect.stringMatching(ISO_UTC),
        },
      });
    }
    expect(objectsAfter).toEqual(objectsBefore);
  });

  it('refuses every operation with 403 naming the claim to a token whose roles map to no role', async () => {
    // Prepare
    const token = await companyB.provider.mintTestToken({
      claims: { aud: TEST_PROVIDER_AUDIENCE, sub: 'nobody-b', groups: ['staff'], roles: ['admin'] },
    });
    // Act
    const responses = await Promise.all([
      call('/v2/objects', { bearer: token }),
      call(`/v2/objects/${companyB.objectId}`, {
        method: 'PUT',
        bearer: token,
        body: { action: 'update', description: 'By nobody' },
      }),
    ]);
    const objectsAfter = { a: await objectsOf(companyA), b: await objectsOf(companyB) };
    // Assess
    for (const response of responses) {
      expect(response).toEqual({
        status: 403,
        body: {
          error: expect.stringMatching(/^The token's "groups" claim maps to no role of this company/),
          code: 'COMPANY_ACCESS_DENIED',
          timestamp: expect.stringMatching(ISO_UTC),
        },
      });
    }
    expect(objectsAfter).toEqual(objectsBefore);
  });

  it("lists a company's providers, and refuses a removed provider's tokens at once", async () => {
    // Prepare
    const token = await companyA.provider.mintTestToken({ claims: personClaims() });
    const acceptedBefore = await call('/v2/objects', { bearer: token });
    // Act
    const listedBefore = await admin(['list-identity-providers', '--company', companyA.id]);
    const removed = await admin([
      'remove-identity-provider',
      '--company',
      companyA.id,
      '--issuer',
      companyA.provider.issuer,
    ]);
    const listedAfter = await admin(['list-identity-providers', '--company', companyA.id]);
    const refused = await call('/v2/objects', { bearer: token });
    const stillB = await companyB.provider.mintTestToken({
      claims: { aud: TEST_PROVIDER_AUDIENCE, sub: 'editor-b', groups: ['asset-editors'] },
    });
    const acceptedB = await call('/v2/objects', { bearer: stillB });
    // Assess
    expect(acceptedBefore.status).toBe(200);
    const issuersOf = (listed: { identityProviders: { issuer: string }[] }) =>
      listed.identityProviders.map((provider) => provider.issuer).sort();
    expect(issuersOf(listedBefore)).toEqual([companyA.provider.issuer, impostor.issuer].sort());
    expect(removed).toEqual({ issuer: companyA.provider.issuer, companyId: companyA.id, removed: true });
    expect(issuersOf(listedAfter)).toEqual([impostor.issuer]);
    expect(refused).toEqual({
      status: 401,
      body: {
        error: PERSON_TOKEN_REFUSALS.unknownIssuer,
        code: 'UNAUTHORIZED',
        timestamp: expect.stringMatching(ISO_UTC),
      },
    });
    expect(acceptedB.status).toBe(200);
    expect(acceptedB.body.data.map((object: { id: string }) => object.id)).toEqual([companyB.objectId]);
  });
});
