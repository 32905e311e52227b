/**
 * What the local identity provider keeps in `<DATA_DIR>/identity-provider/`, each made at first
 * start and kept (mode 600, as the rest of the data folder): the demo people's password, the
 * token signing key (so that tokens outlive a restart), the cookie keys, and which company and
 * issuer npm start registered last.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, writePrivateFile } from '../private-files.js';

/** The folder in the data folder (private-files.ts tightens it, by name). */
const identityProviderFolder = (dataDirectory: string) => join(dataDirectory, 'identity-provider');
export const demoPasswordFile = (dataDirectory: string) =>
  join(identityProviderFolder(dataDirectory), 'demo-password');
const providerKeysFile = (dataDirectory: string) =>
  join(identityProviderFolder(dataDirectory), 'provider-keys.json');
const registrationFile = (dataDirectory: string) =>
  join(identityProviderFolder(dataDirectory), 'demo-registration.json');

export interface ProviderKeys {
  /** The private JWKs the provider signs ID tokens with (its JWKS publishes their public part). */
  signingKeys: Record<string, unknown>[];
  /** The keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/** The demo company and the issuer npm start registered for it last. */
export interface DemoRegistration {
  companyId: string;
  issuer: string;
}

const randomText = (bytes: number) => randomBytes(bytes).toString('base64url');

/** The file's text, made by `make` and written (600) the first time. */
function kept(file: string, make: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  mkdirSync(join(file, '..'), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const text = make();
  writePrivateFile(file, text);
  return text;
}

/** The one password of the demo people of this data folder (144 random bits). */
export const demoPassword = (dataDirectory: string): string =>
  kept(demoPasswordFile(dataDirectory), () => `${randomText(18)}\n`).trim();

function newProviderKeys(): ProviderKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomText(12),
    alg: 'RS256',
    use: 'sig',
  };
  return { signingKeys: [signingKey], cookieKeys: [randomText(32)] };
}

export const providerKeys = (dataDirectory: string): ProviderKeys =>
  JSON.parse(kept(providerKeysFile(dataDirectory), () => `${JSON.stringify(newProviderKeys(), null, 2)}\n`));

export function readDemoRegistration(dataDirectory: string): DemoRegistration | undefined {
  const file = registrationFile(dataDirectory);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoRegistration) : undefined;
}

export function writeDemoRegistration(dataDirectory: string, registration: DemoRegistration): void {
  writePrivateFile(registrationFile(dataDirectory), `${JSON.stringify(registration, null, 2)}\n`);
}
