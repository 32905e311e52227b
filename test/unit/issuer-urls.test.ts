/** Which issuer and key-set addresses the stack trusts: https, or http on loopback where allowed. */
import {
  LOOPBACK_HTTP_ISSUERS_ENVIRONMENT,
  loopbackHttpAllowed,
  untrustedAddress,
} from '../../lambdas/domain/identity/issuer-urls';

describe('untrustedAddress', () => {
  it.each([
    ['https://idp.example.com', false],
    ['https://idp.example.com/realms/acme', false],
    ['https://127.0.0.1:8443', false],
    ['http://127.0.0.1:4010', true],
    ['http://localhost:4010/', true],
    ['http://[::1]:4010', true],
  ])('trusts %s (loopback http allowed: %s)', (address, allowLoopbackHttp) => {
    // Act / Assess
    expect(untrustedAddress(address, allowLoopbackHttp)).toBeUndefined();
  });

  it.each([
    ['http://idp.example.com', false, 'it must use https'],
    ['http://127.0.0.1:4010', false, 'it must use https'],
    ['http://idp.example.com', true, 'it must use https (or http on a loopback address)'],
    ['http://127.0.0.2:4010', true, 'it must use https (or http on a loopback address)'],
    ['http://127.0.0.1.example.com', true, 'it must use https (or http on a loopback address)'],
    ['ftp://127.0.0.1', true, 'it must use https (or http on a loopback address)'],
    ['https://idp.example.com/?tenant=a', false, 'it must have no query, fragment or credentials'],
    ['https://idp.example.com/#keys', false, 'it must have no query, fragment or credentials'],
    ['https://user:secret@idp.example.com', false, 'it must have no query, fragment or credentials'],
    ['idp.example.com', false, 'it is not a URL'],
    ['', true, 'it is not a URL'],
  ])('refuses %j (loopback http allowed: %s): %s', (address, allowLoopbackHttp, reason) => {
    // Act / Assess
    expect(untrustedAddress(address, allowLoopbackHttp)).toBe(reason);
  });
});

describe('loopbackHttpAllowed', () => {
  const saved = process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
  afterEach(() => {
    if (saved === undefined) delete process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
    else process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] = saved;
  });

  it.each([
    ['allowed', true],
    ['true', false],
    ['ALLOWED', false],
    [undefined, false],
  ])('reads %j as %s', (value, allowed) => {
    // Prepare
    if (value === undefined) delete process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT];
    else process.env[LOOPBACK_HTTP_ISSUERS_ENVIRONMENT] = value;
    // Act / Assess
    expect(loopbackHttpAllowed()).toBe(allowed);
  });
});
