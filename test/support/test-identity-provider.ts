/**
 * A test-only OpenID provider on loopback: it serves its discovery document
 * (`/.well-known/openid-configuration`, issuer `http://127.0.0.1:<port>`) and a JWKS of three
 * keys made by `jose` (RS256, ES256, EdDSA), and mints tokens with chosen claims, header and
 * key. The product never mints a person's token: only these tests do, to see what the API
 * accepts and what it refuses, including two tokens no provider would issue (an unsigned
 * `alg: none` one, and an HS256 one keyed with the provider's public key).
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWTHeaderParameters,
  type JWTPayload,
  SignJWT,
} from 'jose';

/** The audience the test provider is registered with, as the console's client id is. */
export const TEST_PROVIDER_AUDIENCE = 'asset-registry-console';

/** The admin CLI's line that registers an issuer for a company (e2e tests run it as operators do). */
export const addIdentityProviderArguments = (
  companyId: string,
  issuer: string,
  ...options: string[]
): string[] => [
  'add-identity-provider',
  '--company',
  companyId,
  '--issuer',
  issuer,
  '--audience',
  TEST_PROVIDER_AUDIENCE,
  ...options,
];

/** The algorithms of the provider's keys, one key each. */
export const TEST_PROVIDER_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
type TestProviderAlgorithm = (typeof TEST_PROVIDER_ALGORITHMS)[number];

const JWKS_PATH = '/jwks';
const TOKEN_LIFETIME_SECONDS = 300;

/** What a minted token says; a claim given as `undefined` is left out of the token. */
export type TestClaims = Record<string, unknown>;

interface TestMintOptions {
  /** Claims over the defaults (iss: the provider, sub, iat: now, exp: in 5 minutes). */
  claims?: TestClaims;
  /** Header parameters over the defaults (alg of the key, its kid, typ JWT). */
  header?: Partial<JWTHeaderParameters>;
  /** Which of the provider's keys signs it (RS256 unless said). */
  algorithm?: TestProviderAlgorithm;
}

export interface TestIdentityProvider {
  /** `http://127.0.0.1:<port>`: what its tokens carry as `iss`. */
  issuer: string;
  /** The kid of each of its keys. */
  keyIds: Readonly<Record<TestProviderAlgorithm, string>>;
  /** A token signed by one of its keys. */
  mintTestToken(options?: TestMintOptions): Promise<string>;
  /** An unsigned JWS (`alg: none`, empty signature), as an attacker would build it. */
  mintUnsignedTestToken(claims?: TestClaims): string;
  /**
   * An HS256 token whose HMAC key is the RSA key's public half, as PEM (SPKI) or JWK JSON bytes:
   * the algorithm confusion attack on a verifier that lets the token choose the algorithm.
   */
  mintPublicKeyHmacTestToken(publicKeyForm: 'pem' | 'jwk', claims?: TestClaims): Promise<string>;
  /** Replaces one of its keys by a new one with a new kid, as a provider rotating its keys does. */
  rotateKey(algorithm: TestProviderAlgorithm): Promise<void>;
  /** How many times its discovery document and its JWKS were fetched. */
  requests: { discovery: number; jwks: number };
  close(): Promise<void>;
}

interface ProviderKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims of a token, defaults first, with the claims given as `undefined` left out. */
function payloadOf(issuer: string, claims: TestClaims = {}): JWTPayload {
  const now = nowSeconds();
  const merged: TestClaims = {
    iss: issuer,
    sub: 'test-person',
    iat: now,
    exp: now + TOKEN_LIFETIME_SECONDS,
    ...claims,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

/**
 * Starts a provider on a free loopback port.
 * `announcedIssuer` makes its discovery document name another issuer than its own address (a
 * document that does not match the issuer the tokens name).
 *
 * @example
 * const provider = await startTestIdentityProvider();
 * const token = await provider.mintTestToken({ claims: { aud: 'console', roles: ['viewer'] } });
 */
export async function startTestIdentityProvider(
  options: { announcedIssuer?: string } = {},
): Promise<TestIdentityProvider> {
  const keys = {} as Record<TestProviderAlgorithm, ProviderKey>;
  for (const [index, algorithm] of TEST_PROVIDER_ALGORITHMS.entries()) {
    const pair = await generateKeyPair(algorithm, { extractable: true });
    keys[algorithm] = { kid: `test-key-${index + 1}-${algorithm.toLowerCase()}`, ...pair };
  }
  const publicKeys = () =>
    Promise.all(
      TEST_PROVIDER_ALGORITHMS.map(async (algorithm) => ({
        ...(await exportJWK(keys[algorithm].publicKey)),
        kid: keys[algorithm].kid,
        alg: algorithm,
        use: 'sig',
      })),
    );
  const jwks = { keys: await publicKeys() };
  let rotations = 0;
  const requests = { discovery: 0, jwks: 0 };
  let issuer = '';
  const server: Server = createServer((request, response) => {
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/.well-known/openid-configuration') {
      requests.discovery += 1;
      json({ issuer: options.announcedIssuer ?? issuer, jwks_uri: `${issuer}${JWKS_PATH}` });
    } else if (request.url === JWKS_PATH) {
      requests.jwks += 1;
      json(jwks);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    keyIds: Object.fromEntries(
      TEST_PROVIDER_ALGORITHMS.map((algorithm) => [algorithm, keys[algorithm].kid]),
    ) as Record<TestProviderAlgorithm, string>,
    requests,
    async mintTestToken({ claims, header, algorithm = 'RS256' } = {}) {
      const key = keys[algorithm];
      return new SignJWT(payloadOf(issuer, claims))
        .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: 'JWT', ...header })
        .sign(key.privateKey);
    },
    async rotateKey(algorithm) {
      rotations += 1;
      const pair = await generateKeyPair(algorithm, { extractable: true });
      keys[algorithm] = { kid: `test-key-rotated-${rotations}-${algorithm.toLowerCase()}`, ...pair };
      jwks.keys = await publicKeys();
    },
    mintUnsignedTestToken(claims) {
      return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payloadOf(issuer, claims))}.`;
    },
    async mintPublicKeyHmacTestToken(publicKeyForm, claims) {
      const secret =
        publicKeyForm === 'pem'
          ? await exportSPKI(keys.RS256.publicKey)
          : JSON.stringify(jwks.keys.find((jwk) => jwk.kid === keys.RS256.kid));
      const signingInput = `${base64url({ alg: 'HS256', kid: keys.RS256.kid, typ: 'JWT' })}.${base64url(payloadOf(issuer, claims))}`;
      const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
      return `${signingInput}.${signature}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
