/**
 * Whether an issuer could be registered at all: one rule for registering a provider and for
 * refusing a token's `iss` before it is looked up.
 */
import { MAX_ISSUER_BYTES } from '#repositories/identity-provider-repository.js';
import { loopbackHttpAllowed, untrustedAddress } from './issuer-urls.js';

/**
 * Why no provider with this issuer could be registered here (not trusted, or too long for the
 * item's sort key); undefined when one could.
 *
 * @example
 * unregistrableIssuer('http://idp.example.com'); // 'it must use https'
 */
export function unregistrableIssuer(issuer: string): string | undefined {
  return Buffer.byteLength(issuer, 'utf8') > MAX_ISSUER_BYTES
    ? `it is longer than ${MAX_ISSUER_BYTES} bytes`
    : untrustedAddress(issuer, loopbackHttpAllowed());
}
