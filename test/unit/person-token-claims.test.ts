/**
 * What `resolvePersonToken` refuses from a token's claims alone, with the provider stood in for
 * by `fetch` (no network): an `iss` no registration could hold is refused before the lookup
 * (an empty or overlong one would make DynamoDB's GetItem fail, a 500 instead of a 401), and a
 * `sub` that is not a string is refused although the signature verifies (jose does not check
 * its type). The refusals against a real provider are in test/integration/person-tokens.test.ts.
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import {
  clearPersonTokenKeys,
  PERSON_TOKEN_REFUSALS,
  resolvePersonToken,
} from '../../lambdas/domain/identity/person-tokens';
import {
  type IdentityProviderRecord,
  MAX_ISSUER_BYTES,
} from '../../lambdas/repositories/identity-provider-repository';

const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'asset-registry-console';

const record: IdentityProviderRecord = {
  issuer: ISSUER,
  companyId: '5b0b2c1e-4c4e-4c8a-9a59-2f1b1c7d2f10',
  audience: AUDIENCE,
  rolesClaim: 'roles',
  roleMappings: {},
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** A token whose signature no one checks here: it is refused before any key is looked up. */
const unverifiedToken = (claims: JWTPayload): string =>
  [{ alg: 'RS256', typ: 'JWT' }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .concat('c2lnbmF0dXJl')
    .join('.');

afterEach(() => {
  jest.restoreAllMocks();
  clearPersonTokenKeys();
});

describe('resolvePersonToken refuses without looking the issuer up', () => {
  it.each([
    ['empty', ''],
    [`over ${MAX_ISSUER_BYTES} bytes`, `${ISSUER}/${'a'.repeat(MAX_ISSUER_BYTES)}`],
    ['not a URL', 'idp.example.com'],
    ['plain http on a public host', 'http://idp.example.com'],
  ])('a token whose iss is %s', async (_case, issuer) => {
    // Prepare
    const findProvider = jest.fn(async () => record);
    const token = unverifiedToken({ iss: issuer, aud: AUDIENCE, sub: 'demo-vera', exp: 4_102_444_800 });
    // Act
    const outcome = await resolvePersonToken(token, findProvider);
    // Assess
    expect(outcome).toEqual({ refusal: PERSON_TOKEN_REFUSALS.unknownIssuer });
    expect(findProvider).not.toHaveBeenCalled();
  });
});

describe('resolvePersonToken refuses a correctly signed token', () => {
  it.each([
    ['a number', 42],
    ['an object', { id: 'demo-vera' }],
  ])('whose sub is %s', async (_case, subject) => {
    // Prepare
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/.well-known/openid-configuration')
        return json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` });
      if (url.pathname === '/jwks')
        return json({ keys: [{ ...(await exportJWK(publicKey)), alg: 'RS256' }] });
      throw new Error(`unexpected request to ${url}`);
    });
    const token = await new SignJWT({ sub: subject, roles: ['viewer'] } as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    // Act
    const outcome = await resolvePersonToken(token, async () => record);
    // Assess
    expect(outcome).toEqual({ refusal: PERSON_TOKEN_REFUSALS.claims });
  });
});
