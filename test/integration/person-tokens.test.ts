/**
 * A person's token as `resolvePersonToken` checks it, against a test OpenID provider on loopback
 * (a real HTTP server, hence this tier): what it accepts, and each refusal's reason. The
 * provider's record is a stub: the authorizer's lookup is tested through HTTP (e2e).
 */
import { randomUUID } from 'node:crypto';
import { LOOPBACK_HTTP_ISSUERS_ENVIRONMENT } from '../../lambdas/domain/identity/issuer-urls';
import {
  CLOCK_SKEW_SECONDS,
  clearPersonTokenKeys,
  FAILED_DISCOVERY_RETRY_MS,
  JWKS_COOLDOWN_MS,
  PERSON_TOKEN_REFUSALS,
  resolvePersonToken,
} from '../../lambdas/domain/identity/person-tokens';
import type { IdentityProviderRecord } from '../../lambdas/repositories/identity-provider-repository';
import { ROLES } from '../../lambdas/shared/roles';
import {
  startTestIdentityProvider,
  TEST_PROVIDER_ALGORITHMS,
  type TestIdentityProvider,
} from '../support/test-identity-provider';

const AUDIENCE = 'asset-registry-console';
const COMPANY_ID = randomUUID();
const nowSeconds = () => Math.floor(Date.now() / 1000);

let provider: TestIdentityProvider;
let otherProvider: TestIdentityProvider;
let savedLoopback: string | undefined;

const recordOf = (issuer: string, fields: Partial<IdentityProviderRecord> = {}): IdentityProviderRecord => ({
  issuer,
  companyId: COMPANY_ID,
  audience: AUDIENCE,
  rolesClaim: 'roles',
  roleMappings: {},
  createdAt: new Date().toISOString(),
  ...fields,
});

/** A lookup that knows only the records given, by issuer. */
const providersOf =
  (...records: IdentityProviderRecord[]) =>
  async (issuer: string) =>
    records.find((record) => record.issuer === issuer);

/** Claims of a valid token of the provider for the console. */
const personClaims = (claims: Record<string, unknown> = {}) => ({
  aud: AUDIENCE,
  sub: 'demo-vera',
  name: 'Vera Viewer',
  roles: ['viewer'],
  ...claims,
});

async function refusalOf(token: string, records = [recordOf(provider.issuer)]): Promise<string | undefined> {
  const outcome = await resolvePersonToken(token, providersOf(...records));
  return 'refusal' in outcome ? outcome.refusal : undefined;
}

beforeAll(async () => {
  savedLoopback = process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
  process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] = 'allowed';
  [provider, otherProvider] = await Promise.all([startTestIdentityProvider(), startTestIdentityProvider()]);
});

afterAll(async () => {
  if (savedLoopback === undefined) delete process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
  else process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] = savedLoopback;
  await Promise.all([provider.close(), otherProvider.close()]);
});

beforeEach(() => {
  clearPersonTokenKeys();
});

describe('resolvePersonToken accepts', () => {
  it.each(TEST_PROVIDER_ALGORITHMS)("a token signed with the provider's %s key", async (algorithm) => {
    // Prepare
    const token = await provider.mintTestToken({ algorithm, claims: personClaims() });
    // Act
    const outcome = await resolvePersonToken(token, providersOf(recordOf(provider.issuer)));
    // Assess
    const host = new URL(provider.issuer).host;
    expect(outcome).toEqual({
      principal: {
        type: 'company',
        tenantId: COMPANY_ID,
        keyId: `user:demo-vera@${host}`,
        permissions: new Set(ROLES.viewer.permissions),
        person: { principal: `user:demo-vera@${host}`, role: 'viewer', displayName: 'Vera Viewer' },
      },
    });
  });

  it(`a token that expired ${CLOCK_SKEW_SECONDS / 2} s ago (within the skew)`, async () => {
    // Prepare
    const token = await provider.mintTestToken({
      claims: personClaims({ exp: nowSeconds() - CLOCK_SKEW_SECONDS / 2 }),
    });
    // Act
    const refusal = await refusalOf(token);
    // Assess
    expect(refusal).toBeUndefined();
  });

  it('the highest of several roles, a single role as a string, and an email for want of a name', async () => {
    // Prepare
    const several = await provider.mintTestToken({
      claims: personClaims({ roles: ['viewer', 'admin', 'auditor'] }),
    });
    const single = await provider.mintTestToken({
      claims: personClaims({ roles: 'editor', name: undefined, email: 'eddie@demo.example' }),
    });
    // Act
    const [fromSeveral, fromSingle] = await Promise.all(
      [several, single].map((token) => resolvePersonToken(token, providersOf(recordOf(provider.issuer)))),
    );
    // Assess
    expect(fromSeveral).toMatchObject({ principal: { person: { role: 'admin' } } });
    expect(fromSingle).toMatchObject({
      principal: { person: { role: 'editor', displayName: 'eddie@demo.example' } },
    });
  });

  it("the provider's own roles claim, through its mapping of claim values to roles", async () => {
    // Prepare
    const record = recordOf(provider.issuer, {
      rolesClaim: 'groups',
      roleMappings: { 'asset-auditors': 'auditor', 'asset-editors': 'editor' },
    });
    const token = await provider.mintTestToken({
      claims: personClaims({ roles: ['admin'], groups: ['staff', 'asset-auditors'] }),
    });
    // Act
    const outcome = await resolvePersonToken(token, providersOf(record));
    // Assess
    expect(outcome).toMatchObject({
      principal: { person: { role: 'auditor' }, permissions: new Set(ROLES.auditor.permissions) },
    });
  });
});

describe('resolvePersonToken refuses', () => {
  it(`a token that expired more than ${CLOCK_SKEW_SECONDS} s ago`, async () => {
    // Prepare
    const token = await provider.mintTestToken({
      claims: personClaims({ exp: nowSeconds() - CLOCK_SKEW_SECONDS - 5 }),
    });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.expired);
  });

  it('a token not valid before 120 s from now', async () => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims({ nbf: nowSeconds() + 120 }) });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.notYetValid);
  });

  it('a token for another audience', async () => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims({ aud: 'another-client' }) });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.audience);
  });

  it('a token for several audiences, ours among them, issued to another party (azp)', async () => {
    // Prepare
    const toAnother = await provider.mintTestToken({
      claims: personClaims({ aud: ['another-client', AUDIENCE], azp: 'another-client' }),
    });
    const toUs = await provider.mintTestToken({
      claims: personClaims({ aud: ['another-client', AUDIENCE], azp: AUDIENCE }),
    });
    // Act
    const [refusalToAnother, refusalToUs] = [await refusalOf(toAnother), await refusalOf(toUs)];
    // Assess
    expect(refusalToAnother).toBe(PERSON_TOKEN_REFUSALS.audience);
    expect(refusalToUs).toBeUndefined();
  });

  it('a token of an issuer that no company registered', async () => {
    // Prepare
    const token = await otherProvider.mintTestToken({ claims: personClaims() });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.unknownIssuer);
  });

  it('a token without iss', async () => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims({ iss: undefined }) });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.unknownIssuer);
  });

  it('a token whose issuer serves a discovery document naming another issuer', async () => {
    // Prepare
    const impostor = await startTestIdentityProvider({ announcedIssuer: 'https://idp.example.com' });
    const token = await impostor.mintTestToken({ claims: personClaims() });
    // Act
    const refusal = await refusalOf(token, [recordOf(impostor.issuer)]).finally(() => impostor.close());
    // Assess
    expect(refusal).toBe(PERSON_TOKEN_REFUSALS.discoveryMismatch);
    expect(impostor.requests.jwks).toBe(0);
  });

  it("a token signed by another provider's key under the registered issuer", async () => {
    // Prepare
    const token = await otherProvider.mintTestToken({
      claims: personClaims({ iss: provider.issuer }),
      header: { kid: provider.keyIds.RS256 },
    });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.signature);
  });

  it('a token whose kid the provider does not publish', async () => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims(), header: { kid: 'retired-key' } });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.unknownKey);
  });

  it('an unsigned token (alg none), before fetching any key', async () => {
    // Prepare
    const token = provider.mintUnsignedTestToken(personClaims());
    const fetchesBefore = provider.requests.discovery;
    // Act
    const refusal = await refusalOf(token);
    // Assess
    expect(refusal).toBe(PERSON_TOKEN_REFUSALS.algorithm);
    expect(provider.requests.discovery).toBe(fetchesBefore);
  });

  it.each(['pem', 'jwk'] as const)(
    "an HS256 token keyed with the provider's public key as %s",
    async (publicKeyForm) => {
      // Prepare
      const token = await provider.mintPublicKeyHmacTestToken(publicKeyForm, personClaims());
      // Act / Assess
      expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.algorithm);
    },
  );

  it.each([
    ['without sub', { sub: undefined }],
    ['with an empty sub', { sub: '' }],
    ['without exp', { exp: undefined }],
  ])('a token %s', async (_claim, claims) => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims(claims) });
    // Act / Assess
    expect(await refusalOf(token)).toBe(PERSON_TOKEN_REFUSALS.claims);
  });

  it("a token whose payload was changed under the provider's signature", async () => {
    // Prepare
    const [header, , signature] = (await provider.mintTestToken({ claims: personClaims() })).split('.');
    const [, adminPayload] = (
      await provider.mintTestToken({ claims: personClaims({ roles: ['admin'] }) })
    ).split('.');
    // Act / Assess: the viewer token's header and signature over an admin's claims.
    expect(await refusalOf(`${header}.${adminPayload}.${signature}`)).toBe(PERSON_TOKEN_REFUSALS.signature);
  });

  it('a token that is not a JWT', async () => {
    // Act / Assess
    expect(await refusalOf('not.a.jwt')).toBe(PERSON_TOKEN_REFUSALS.malformed);
  });

  it('a plain http issuer where the environment does not allow it', async () => {
    // Prepare
    const token = await provider.mintTestToken({ claims: personClaims() });
    delete process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
    // Act
    const refusal = await refusalOf(token).finally(() => {
      process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] = 'allowed';
    });
    // Assess
    expect(refusal).toBe(PERSON_TOKEN_REFUSALS.unknownIssuer);
  });

  it('a token of a provider that does not answer', async () => {
    // Prepare
    const gone = await startTestIdentityProvider();
    const token = await gone.mintTestToken({ claims: personClaims() });
    await gone.close();
    // Act / Assess
    expect(await refusalOf(token, [recordOf(gone.issuer)])).toBe(PERSON_TOKEN_REFUSALS.providerUnreachable);
  });
});

describe('resolvePersonToken, for a valid token whose roles claim maps to no role', () => {
  it.each([
    ['names no role', { roles: ['superuser'] }],
    ['is missing', { roles: undefined }],
  ])(
    'gives a principal without permissions whose refusal names the claim, when the claim %s',
    async (_case, claims) => {
      // Prepare
      const token = await provider.mintTestToken({ claims: personClaims(claims) });
      // Act
      const outcome = await resolvePersonToken(token, providersOf(recordOf(provider.issuer)));
      // Assess
      expect(outcome).toEqual({
        principal: expect.objectContaining({ tenantId: COMPANY_ID, permissions: new Set() }),
      });
      expect('principal' in outcome && outcome.principal.person).toBeUndefined();
      expect('principal' in outcome && outcome.principal.refusal).toMatch(
        /^The token's "roles" claim maps to no role/,
      );
    },
  );
});

describe("resolvePersonToken follows its provider's key rotation", () => {
  it(`fetches the key set again for an unknown kid, at most once every ${JWKS_COOLDOWN_MS / 1000} s`, async () => {
    // Prepare
    const rotating = await startTestIdentityProvider();
    const records = [recordOf(rotating.issuer)];
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const before = await refusalOf(await rotating.mintTestToken({ claims: personClaims() }), records);
      await rotating.rotateKey('RS256');
      const rotatedToken = await rotating.mintTestToken({ claims: personClaims() });
      // Act
      const duringCooldown = await refusalOf(rotatedToken, records);
      const fetchesDuringCooldown = rotating.requests.jwks;
      clock.mockReturnValue(now + JWKS_COOLDOWN_MS + 1000);
      const afterCooldown = await refusalOf(rotatedToken, records);
      // Assess
      expect(before).toBeUndefined();
      expect(duringCooldown).toBe(PERSON_TOKEN_REFUSALS.unknownKey);
      expect(fetchesDuringCooldown).toBe(1);
      expect(afterCooldown).toBeUndefined();
      expect(rotating.requests).toEqual({ discovery: 1, jwks: 2 });
    } finally {
      clock.mockRestore();
      await rotating.close();
    }
  });
});

describe("resolvePersonToken reads an issuer's discovery document", () => {
  it('once for tokens that arrive together, the first time', async () => {
    // Prepare
    const fresh = await startTestIdentityProvider();
    const records = [recordOf(fresh.issuer)];
    const tokens = await Promise.all([1, 2, 3].map(() => fresh.mintTestToken({ claims: personClaims() })));
    try {
      // Act
      const refusals = await Promise.all(tokens.map((token) => refusalOf(token, records)));
      // Assess
      expect(refusals).toEqual([undefined, undefined, undefined]);
      expect(fresh.requests).toEqual({ discovery: 1, jwks: 1 });
    } finally {
      await fresh.close();
    }
  });

  it(`not again for ${FAILED_DISCOVERY_RETRY_MS / 1000} s after it failed, and then again`, async () => {
    // Prepare
    const misconfigured = await startTestIdentityProvider({ announcedIssuer: 'https://elsewhere.example' });
    const records = [recordOf(misconfigured.issuer)];
    const token = await misconfigured.mintTestToken({ claims: personClaims() });
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      // Act
      const first = await refusalOf(token, records);
      const second = await refusalOf(token, records);
      const fetchesWhileRemembered = misconfigured.requests.discovery;
      clock.mockReturnValue(now + FAILED_DISCOVERY_RETRY_MS + 1000);
      const afterRetry = await refusalOf(token, records);
      // Assess
      expect([first, second, afterRetry]).toEqual(Array(3).fill(PERSON_TOKEN_REFUSALS.discoveryMismatch));
      expect(fetchesWhileRemembered).toBe(1);
      expect(misconfigured.requests.discovery).toBe(2);
    } finally {
      clock.mockRestore();
      await misconfigured.close();
    }
  });
});
