/**
 * Where our own AWS requests go: the host each service's SDK client would choose, from the same
 * data and the same settings. The partition of the region and its DNS suffixes come from the
 * SDK's partition table (`partition()` of `@aws-sdk/core`, which every bundle already holds for
 * the DynamoDB client's endpoint rules); the settings are the environment variables the SDK
 * clients read (`AWS_REGION`, `AWS_USE_FIPS_ENDPOINT`, `AWS_USE_DUALSTACK_ENDPOINT`,
 * `AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ENDPOINT_URL`, `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`). The
 * SDK also reads them from the shared config file, which a Lambda function does not have; we
 * read the environment only. `docs/aws-endpoints.md` says what is compared with the SDK clients.
 */
import { isVirtualHostableS3Bucket, partition } from '@aws-sdk/core/client';
import { ENV_USE_DUALSTACK_ENDPOINT, ENV_USE_FIPS_ENDPOINT } from '@smithy/core/config';
import { EndpointError } from '@smithy/core/endpoints';

/** The function's region (Lambda sets `AWS_REGION`). */
export const awsRegion = (): string => process.env.AWS_REGION ?? 'us-east-1';

/** Where a service's requests go: what precedes the operation's own path. */
export interface Endpoint {
  protocol: string;
  hostname: string;
  port?: number;
  /**
   * The configured endpoint URL's path as written (`''` for none or `/`): REST operations append
   * their path to it, RPC ones post to it.
   */
  pathPrefix: string;
}

const ENDPOINT_URL_ENVIRONMENT = 'AWS_ENDPOINT_URL';
const IGNORE_CONFIGURED_ENDPOINT_URLS_ENVIRONMENT = 'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS';

/**
 * A switch as the SDK reads it from the environment: `true` or `false`; any other value is
 * passed over, and the SDK's default (off) holds.
 */
const switchedOn = (name: string): boolean => process.env[name] === 'true';

/**
 * The variable that holds one service's endpoint URL, from the service's id as its SDK client
 * names it (`S3` → `AWS_ENDPOINT_URL_S3`, `Lambda` → `AWS_ENDPOINT_URL_LAMBDA`).
 *
 * @example
 * process.env[endpointUrlEnvironment('S3')] = 'http://127.0.0.1:4569';
 */
export const endpointUrlEnvironment = (serviceId: string): string =>
  [ENDPOINT_URL_ENVIRONMENT, ...serviceId.split(' ').map((word) => word.toUpperCase())].join('_');

/**
 * The endpoint URL configured for a service, with the SDK's precedence: the service's own
 * variable, then `AWS_ENDPOINT_URL` (an empty one counts as unset); none while
 * `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is `true`.
 */
function configuredEndpointUrl(serviceId: string): string | undefined {
  if (switchedOn(IGNORE_CONFIGURED_ENDPOINT_URLS_ENVIRONMENT)) return undefined;
  return process.env[endpointUrlEnvironment(serviceId)] || process.env[ENDPOINT_URL_ENVIRONMENT] || undefined;
}

/** An endpoint URL as the SDK splits it: scheme, host, port (none when it is the scheme's) and path. */
export function endpointOfUrl(url: string): Endpoint {
  const parsed = new URL(url);
  return {
    protocol: parsed.protocol,
    hostname: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : undefined,
    pathPrefix: parsed.pathname === '/' ? '' : parsed.pathname,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the service's configured endpoint is on this machine: an emulator there (s3rver, the
 * local stack's endpoint) is what local mode and the tests point a service at.
 */
export function endpointOnThisMachine(serviceId: string): boolean {
  const url = configuredEndpointUrl(serviceId);
  return url !== undefined && LOOPBACK_HOSTS.has(new URL(url).hostname);
}

/**
 * The region, its partition's data (DNS suffixes, FIPS and dual-stack support) and whether FIPS
 * and dual-stack endpoints are asked for.
 */
function regionalSettings() {
  const region = awsRegion();
  return {
    region,
    partition: partition(region),
    fips: switchedOn(ENV_USE_FIPS_ENDPOINT),
    dualStack: switchedOn(ENV_USE_DUALSTACK_ENDPOINT),
  };
}

const httpsTo = (hostname: string): Endpoint => ({ protocol: 'https:', hostname, pathPrefix: '' });

/**
 * The endpoint of a service with the standard regional rules (KMS, SQS, Lambda):
 * `<prefix>[-fips].<region>.<suffix>`, the suffix the partition's dual-stack one when dual-stack
 * is asked for; or the configured endpoint URL, which goes with neither. A setting the partition
 * does not support, or that does not go with a configured URL, throws the SDK's `EndpointError`
 * in the words of the services' rules. The endpoint prefix is also the SDK's service id for
 * these services (`kms` → `AWS_ENDPOINT_URL_KMS`).
 *
 * @example
 * regionalEndpoint('kms'); // { protocol: 'https:', hostname: 'kms.eu-west-1.amazonaws.com', pathPrefix: '' }
 */
export function regionalEndpoint(endpointPrefix: string): Endpoint {
  const { region, partition: inPartition, fips, dualStack } = regionalSettings();
  const configured = configuredEndpointUrl(endpointPrefix);
  if (configured) {
    if (fips) throw new EndpointError('Invalid Configuration: FIPS and custom endpoint are not supported');
    if (dualStack)
      throw new EndpointError('Invalid Configuration: Dualstack and custom endpoint are not supported');
    return endpointOfUrl(configured);
  }
  if (fips && dualStack && !(inPartition.supportsFIPS && inPartition.supportsDualStack)) {
    throw new EndpointError(
      'FIPS and DualStack are enabled, but this partition does not support one or both',
    );
  }
  if (fips && !inPartition.supportsFIPS) {
    throw new EndpointError('FIPS is enabled but this partition does not support FIPS');
  }
  if (dualStack && !inPartition.supportsDualStack) {
    throw new EndpointError('DualStack is enabled but this partition does not support DualStack');
  }
  const suffix = dualStack ? inPartition.dualStackDnsSuffix : inPartition.dnsSuffix;
  return httpsTo(`${endpointPrefix}${fips ? '-fips' : ''}.${region}.${suffix}`);
}

/**
 * S3's rules refuse FIPS in these partitions, whatever the partition table says (the China
 * regions have no S3 FIPS endpoints).
 */
const PARTITIONS_WITHOUT_S3_FIPS = new Set(['aws-cn']);

/**
 * Where a bucket's requests go, as the S3 client's rules have it (`forcePathStyle` off, which is
 * its default): virtual-hosted, `<bucket>.s3[-fips][.dualstack].<region>.<suffix>` (dual-stack
 * keeps the partition's usual suffix), or path-style on the same host for a bucket name that
 * cannot be a host label (dots, capitals); with a configured endpoint URL, always path-style on
 * it (as the S3 client with `forcePathStyle`, which emulators such as s3rver need).
 *
 * @example
 * s3BucketEndpoint('files'); // { hostname: 'files.s3.eu-west-1.amazonaws.com', bucketInPath: false, … }
 */
export function s3BucketEndpoint(bucket: string): Endpoint & { bucketInPath: boolean } {
  const { region, partition: inPartition, fips, dualStack } = regionalSettings();
  const configured = configuredEndpointUrl('S3');
  if (configured) {
    if (dualStack) throw new EndpointError('Cannot set dual-stack in combination with a custom endpoint.');
    if (fips) throw new EndpointError('A custom endpoint cannot be combined with FIPS');
    return { ...endpointOfUrl(configured), bucketInPath: true };
  }
  if (fips && PARTITIONS_WITHOUT_S3_FIPS.has(inPartition.name)) {
    throw new EndpointError('Partition does not support FIPS');
  }
  const host = `s3${fips ? '-fips' : ''}${dualStack ? '.dualstack' : ''}.${region}.${inPartition.dnsSuffix}`;
  return isVirtualHostableS3Bucket(bucket, false)
    ? { ...httpsTo(`${bucket}.${host}`), bucketInPath: false }
    : { ...httpsTo(host), bucketInPath: true };
}
