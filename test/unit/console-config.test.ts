/** The console's `config.json`: the API's base URL, and the identity provider people sign in with (no browser). */
import { parseConsoleConfig } from '../../console/src/config';

describe('parseConsoleConfig', () => {
  it('reads signIn when the config names a provider, and leaves it out otherwise', () => {
    // Act
    const withPeople = parseConsoleConfig({
      apiBaseUrl: 'https://api.example/prod',
      signIn: { issuer: 'http://127.0.0.1:4010', clientId: 'asset-registry-console' },
    });
    const keysOnly = parseConsoleConfig({ apiBaseUrl: '/' });
    // Assess
    expect(withPeople).toEqual({
      apiBaseUrl: 'https://api.example/prod/',
      signIn: { issuer: 'http://127.0.0.1:4010', clientId: 'asset-registry-console' },
    });
    expect(keysOnly).toEqual({ apiBaseUrl: '/' });
  });

  it.each([
    ['no issuer', { clientId: 'asset-registry-console' }],
    ['an issuer that is not a URL', { issuer: 'demo provider', clientId: 'asset-registry-console' }],
    ['no client id', { issuer: 'https://id.example' }],
    ['an empty client id', { issuer: 'https://id.example', clientId: '' }],
  ])('refuses a signIn with %s, in words', (_case, signIn) => {
    // Act
    const parse = () => parseConsoleConfig({ apiBaseUrl: '/', signIn });
    // Assess
    expect(parse).toThrow("The console's config.json has a signIn without a valid issuer URL and clientId");
  });

  it("reads Cognito's signOutUrl, and refuses one that is not a URL", () => {
    // Prepare
    const signIn = { issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/pool', clientId: 'client' };
    const signOutUrl = 'https://acme.auth.eu-west-1.amazoncognito.com/logout';
    // Act
    const parsed = parseConsoleConfig({ apiBaseUrl: '/', signIn: { ...signIn, signOutUrl } });
    const parseWrong = () =>
      parseConsoleConfig({ apiBaseUrl: '/', signIn: { ...signIn, signOutUrl: 'logout' } });
    // Assess
    expect(parsed.signIn).toEqual({ ...signIn, signOutUrl });
    expect(parseWrong).toThrow("The console's config.json has a signIn.signOutUrl that is not a URL");
  });
});
