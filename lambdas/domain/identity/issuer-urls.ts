/**
 * Which issuer (and key set) addresses the stack trusts: `https` always; plain `http` only on a
 * loopback address, and only where the environment allows it (the local stack sets
 * {@link LOOPBACK_HTTP_ISSUERS_ENVIRONMENT}; a deployed stack never does).
 */
export const LOOPBACK_HTTP_ISSUERS_ENVIRONMENT = 'LOOPBACK_HTTP_ISSUERS';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const loopbackHttpAllowed = (): boolean =>
  process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] === 'allowed';

/**
 * Why an issuer or key-set address is not trusted; undefined when it is.
 *
 * @example
 * untrustedAddress('http://idp.example.com', false); // 'it must use https'
 * untrustedAddress('http://127.0.0.1:4010', true); // undefined
 */
export function untrustedAddress(address: string, allowLoopbackHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'it is not a URL';
  }
  if (url.search || url.hash || url.username || url.password) {
    return 'it must have no query, fragment or credentials';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return allowLoopbackHttp ? 'it must use https (or http on a loopback address)' : 'it must use https';
}
