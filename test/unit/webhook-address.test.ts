/** SSRF rules of webhook URLs: which addresses are public, and what a host may resolve to. */
import {
  allowedAddresses,
  checkedUrl,
  isAllowedAddress,
  WebhookAddressError,
} from '../../lambdas/domain/webhooks/webhook-address';

const NOT_PUBLIC = [
  '0.0.0.0',
  '10.0.0.1',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.1.2.3',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.2.10',
  '192.168.0.1',
  '198.18.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:8.8.8.8',
  '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
  '::ffff:0:a00:1',
  '::ffff:0:808:808',
  '64:ff9b::a00:1',
  '2002:a00:1::',
  '2001:db8::1',
  'fc00::1',
  'fd00:ec2::254',
  'fe80::1',
  'ff02::1',
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'];

describe('isAllowedAddress', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(isAllowedAddress(address, false)).toBe(true);
  });

  it('allows loopback only where local mode allows it, and nothing else private', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', true)).toBe(false);
  });

  it('refuses text that is not an address', () => {
    expect(isAllowedAddress('example.com', false)).toBe(false);
  });
});

describe('allowedAddresses', () => {
  const saved = process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
  beforeEach(() => {
    delete process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
  });
  afterAll(() => {
    process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = saved;
  });

  it('refuses a host when any one of its addresses is not public', async () => {
    // Prepare: a name with a public and a private address (one way to aim a check at the first).
    const resolve = async () => ['93.184.215.14', '10.0.0.7'];
    // Act
    const checking = allowedAddresses(new URL('https://hooks.example.com/in'), resolve);
    // Assess
    await expect(checking).rejects.toThrow(WebhookAddressError);
    await expect(checking).rejects.toMatchObject({ code: 'ADDRESS_NOT_ALLOWED' });
  });

  it('returns every address of a host that resolves only to public ones', async () => {
    const resolve = async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];
    await expect(allowedAddresses(new URL('https://hooks.example.com/in'), resolve)).resolves.toEqual([
      '93.184.215.14',
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
    ]);
  });

  it('refuses a host that does not resolve', async () => {
    const resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(allowedAddresses(new URL('https://nowhere.invalid/'), resolve)).rejects.toMatchObject({
      code: 'ADDRESS_NOT_ALLOWED',
    });
  });

  it.each(['https://93.184.215.14/in', 'https://93.184.215.14:443/in', 'https://93.184.215.14:8443/in'])(
    'allows %s: port 443 (the default) or 8443',
    async (url) => {
      await expect(allowedAddresses(new URL(url))).resolves.toEqual(['93.184.215.14']);
    },
  );

  it.each([
    ['https://93.184.215.14:80/in', 80],
    ['https://93.184.215.14:22/in', 22],
    ['https://93.184.215.14:8080/in', 8080],
  ])('refuses %s: no other port', async (url, port) => {
    await expect(allowedAddresses(new URL(url))).rejects.toMatchObject({
      code: 'ADDRESS_NOT_ALLOWED',
      message: `The port ${port} is not allowed: a webhook URL uses port 443 or 8443`,
    });
  });

  it('takes any port where local mode allows loopback', async () => {
    process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = 'true';
    await expect(allowedAddresses(new URL('http://127.0.0.1:39123/in'))).resolves.toEqual(['127.0.0.1']);
  });

  it('refuses the IPv4-translated form of loopback even where local mode allows loopback', async () => {
    process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = 'true';
    await expect(allowedAddresses(new URL('https://[::ffff:0:7f00:1]/'))).rejects.toMatchObject({
      code: 'ADDRESS_NOT_ALLOWED',
    });
  });

  it('checks an IP literal itself, without resolving it', async () => {
    const resolve = jest.fn(async () => ['93.184.215.14']);
    await expect(allowedAddresses(new URL('https://[::ffff:a9fe:a9fe]/'), resolve)).rejects.toThrow(
      WebhookAddressError,
    );
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('checkedUrl', () => {
  const saved = process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
  afterEach(() => {
    process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = saved;
  });

  it('takes only https in AWS, and also http locally', () => {
    delete process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
    expect(() => checkedUrl('http://hooks.example.com/')).toThrow('url must be https');
    expect(checkedUrl('https://hooks.example.com/in').href).toBe('https://hooks.example.com/in');
    process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = 'true';
    expect(checkedUrl('http://127.0.0.1:8080/in').protocol).toBe('http:');
  });

  it('refuses credentials in the URL and text that is not a URL', () => {
    expect(() => checkedUrl('https://user:secret@hooks.example.com/')).toThrow('credentials');
    expect(() => checkedUrl('not a url')).toThrow('absolute URL');
  });
});
