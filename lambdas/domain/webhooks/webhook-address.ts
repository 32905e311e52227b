/**
 * No server-side request forgery: a webhook may only reach public addresses. A URL must be
 * `https` (local mode also takes `http` to a loopback address, `LOCAL_WEBHOOKS_ALLOW_LOOPBACK`),
 * carry no credentials, and every address its host resolves to must be public: not loopback,
 * private (RFC 1918, IPv6 ULA), link-local (which holds the cloud metadata address), CGNAT,
 * documentation, benchmarking, multicast or reserved, nor an IPv6 form that embeds IPv4
 * (mapped, translated, NAT64, 6to4, Teredo). The port must be HTTPS's (443, the default, or
 * 8443), so that a webhook cannot knock on other services of a public host. The check runs at
 * creation and again before every delivery, and the delivery connects to exactly the address
 * checked, so DNS cannot rebind in between.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT = 'LOCAL_WEBHOOKS_ALLOW_LOOPBACK';

/**
 * The ports a webhook may use. Local mode lifts the limit with loopback: its deliveries leave
 * the developer's own machine, and receivers there listen wherever they can.
 */
const WEBHOOK_PORTS: readonly number[] = [443, 8443];

const NOT_PUBLIC_RANGES: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // CGNAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, with the metadata address 169.254.169.254
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved and broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT)
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96, 'ipv6'], // NAT64
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 23, 'ipv6'], // IETF protocol assignments, Teredo among them
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4
  ['fc00::', 7, 'ipv6'], // unique local, with AWS's metadata fd00:ec2::254
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

/**
 * One list per family: a BlockList also matches IPv4 addresses against IPv6 rules through their
 * mapped form (`::ffff:a.b.c.d`), which would make every IPv4 address "mapped".
 */
const notPublic = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [network, prefix, family] of NOT_PUBLIC_RANGES)
  notPublic[family].addSubnet(network, prefix, family);

const loopbackLists = { ipv4: new BlockList(), ipv6: new BlockList() };
loopbackLists.ipv4.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackLists.ipv6.addAddress('::1', 'ipv6');

const familyOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const isLoopback = (address: string) => loopbackLists[familyOf(address)].check(address, familyOf(address));

/** Whether an address is one a webhook may reach (loopback too where local mode allows it). */
export function isAllowedAddress(address: string, allowLoopback = loopbackAllowed()): boolean {
  if (isIP(address) === 0) return false;
  if (allowLoopback && isLoopback(address)) return true;
  return !notPublic[familyOf(address)].check(address, familyOf(address));
}

/** Local mode (`npm start`, the tests) lets a developer receive on their own machine. */
const loopbackAllowed = (): boolean => process.env[LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT] === 'true';

/** Why a URL may not be used; the message is shown to the caller. */
export class WebhookAddressError extends Error {
  override name = 'WebhookAddressError';
  constructor(
    message: string,
    /** `FORMAT_INVALID` for the URL itself, `ADDRESS_NOT_ALLOWED` for where it leads. */
    readonly code: 'FORMAT_INVALID' | 'ADDRESS_NOT_ALLOWED',
  ) {
    super(message);
  }
}

/** Resolves a host name to all of its addresses (an IP literal to itself). */
export type HostResolver = (hostname: string) => Promise<string[]>;

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The resolver used when none is given (creation, update and every delivery attempt): the
 * system's. A seam for the tests, which resolve names themselves to see a host change its address
 * between creation and delivery; nothing else replaces it.
 */
export const hostResolution: { resolve: HostResolver } = { resolve: systemResolver };

/** A URL checked for shape: `https`, or `http` where loopback is allowed; no credentials. */
export function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookAddressError('url must be an absolute URL', 'FORMAT_INVALID');
  }
  const httpAllowed = loopbackAllowed();
  if (url.protocol !== 'https:' && !(httpAllowed && url.protocol === 'http:')) {
    throw new WebhookAddressError(
      httpAllowed ? 'url must be https (or http to a loopback address)' : 'url must be https',
      'FORMAT_INVALID',
    );
  }
  if (url.username || url.password) {
    throw new WebhookAddressError('url may not carry credentials', 'FORMAT_INVALID');
  }
  return url;
}

/** IPv6 literals come bracketed in URLs. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The addresses a URL may be delivered to: all of its host's addresses, each allowed. Throws
 * {@link WebhookAddressError} when the host does not resolve or any address is not public
 * (`http` must moreover lead to loopback only), or the port is not one of {@link WEBHOOK_PORTS}.
 *
 * @example
 * await allowedAddresses(new URL('https://hooks.example.com/in')) // ['93.184.215.14']
 */
export async function allowedAddresses(
  url: URL,
  resolve: HostResolver = hostResolution.resolve,
): Promise<string[]> {
  const host = bareHost(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new WebhookAddressError(`The host ${host} does not resolve`, 'ADDRESS_NOT_ALLOWED');
  }
  if (addresses.length === 0) {
    throw new WebhookAddressError(`The host ${host} does not resolve`, 'ADDRESS_NOT_ALLOWED');
  }
  const refused = addresses.filter(
    (address) => !isAllowedAddress(address) || (url.protocol === 'http:' && !isLoopback(address)),
  );
  if (refused.length > 0) {
    throw new WebhookAddressError(
      `The host ${host} resolves to an address that is not public (${refused[0]})`,
      'ADDRESS_NOT_ALLOWED',
    );
  }
  // After the addresses, so that a refused address is named as such whatever the port.
  const port = url.port === '' ? 443 : Number(url.port);
  if (!loopbackAllowed() && !WEBHOOK_PORTS.includes(port)) {
    throw new WebhookAddressError(
      `The port ${port} is not allowed: a webhook URL uses port ${WEBHOOK_PORTS.join(' or ')}`,
      'ADDRESS_NOT_ALLOWED',
    );
  }
  return addresses;
}
