/**
 * Requests to the AWS services that speak JSON, on `aws-requests.ts`: the AWS JSON protocol
 * (KMS, SQS: a POST to the service's root naming the operation in `X-Amz-Target`) and one REST
 * JSON call (Lambda's asynchronous Invoke). Each is the request the service's SDK client sends,
 * header for header and byte for byte (`test/unit/aws-json-requests.test.ts`); the SDK clients
 * cost 30 to 150 KB of bundle each, and their share of every cold start.
 */
import type { SignatureV4 } from '@smithy/signature-v4';
import { endpointOfUrl, regionalEndpoint } from './aws-endpoints.js';
import { type AwsRequest, type ErrorReader, readAll, sendAws, signerFor } from './aws-requests.js';

/** A service the service calls: its name in traces, its endpoint prefix and signing name. */
export interface JsonService {
  name: string;
  /** `kms` → `kms.<region>.amazonaws.com`, signed for `kms`, its URL in `AWS_ENDPOINT_URL_KMS`. */
  endpointPrefix: string;
  /** The AWS JSON protocol's version (`application/x-amz-json-1.1`). */
  jsonVersion: '1.0' | '1.1';
  /** The prefix of its `X-Amz-Target` (`TrentService`). */
  targetPrefix: string;
  /** Headers its SDK client adds to every request. */
  headers?: Record<string, string>;
  /** The input member whose URL's origin the SDK client sends the request to, when present. */
  addressMember?: string;
}

export const KMS: JsonService = {
  name: 'KMS',
  endpointPrefix: 'kms',
  jsonVersion: '1.1',
  targetPrefix: 'TrentService',
};
export const SQS: JsonService = {
  name: 'SQS',
  endpointPrefix: 'sqs',
  jsonVersion: '1.0',
  targetPrefix: 'AmazonSQS',
  // SQS moved from its query protocol to JSON; this asks for the error codes of the query protocol.
  headers: { 'x-amzn-query-mode': 'true' },
  // The SQS client sends each call to its queue URL's host (`useQueueUrlAsEndpoint`, on by
  // default), whatever its regional, FIPS, dual-stack or configured endpoint.
  addressMember: 'QueueUrl',
};

const signers = new Map<string, SignatureV4>();

/**
 * The service's signer and endpoint (`aws-endpoints.ts`: regional, FIPS or dual-stack, or the
 * configured endpoint URL).
 */
export function serviceEndpoint(
  endpointPrefix: string,
): Pick<AwsRequest, 'signer' | 'protocol' | 'hostname' | 'port' | 'pathPrefix'> {
  let signer = signers.get(endpointPrefix);
  if (!signer) {
    signer = signerFor(endpointPrefix);
    signers.set(endpointPrefix, signer);
  }
  return { signer, ...regionalEndpoint(endpointPrefix) };
}

/**
 * The error a JSON service wrote: its type in `x-amzn-errortype` or `__type`
 * (`com.amazonaws.kms#NotFoundException` → `NotFoundException`), and its message.
 */
export const jsonError: ErrorReader = (status, headers, text) => {
  let written: { __type?: string; code?: string; message?: string; Message?: string } = {};
  try {
    written = JSON.parse(text) as typeof written;
  } catch {
    // not JSON: the status says what there is to say
  }
  const type = headers['x-amzn-errortype'] ?? written.__type ?? written.code ?? `Http${status}`;
  return {
    code: type.split(':')[0]?.split('#').pop() ?? type,
    message: written.message ?? written.Message ?? 'no message',
  };
};

/** The request of one operation of a JSON protocol service (signed by `sendAws`). */
export function jsonRequest(service: JsonService, operation: string, input: object): AwsRequest {
  const address = service.addressMember && (input as Record<string, unknown>)[service.addressMember];
  // Resolved even when the input names the address: the SDK refuses the same settings first.
  const { pathPrefix, ...endpoint } = {
    ...serviceEndpoint(service.endpointPrefix),
    ...(typeof address === 'string' ? endpointOfUrl(new URL(address).origin) : {}),
  };
  return {
    ...endpoint,
    service: service.name,
    operation,
    method: 'POST',
    // An RPC call posts to the endpoint's own path (`/`, or the configured URL's, ending in `/`).
    path: (pathPrefix ?? '').replace(/\/?$/, '/'),
    headers: {
      'content-type': `application/x-amz-json-${service.jsonVersion}`,
      'x-amz-target': `${service.targetPrefix}.${operation}`,
      ...service.headers,
    },
    body: JSON.stringify(input),
  };
}

/**
 * Calls one operation and returns its output. The input's members must be in the order of the
 * service's model (the SDK writes them so; the test compares the bytes), blobs in base64.
 *
 * @example
 * const { CiphertextBlob } = await callJson<{ CiphertextBlob: string }>(KMS, 'Encrypt', { KeyId, Plaintext });
 */
export async function callJson<Output>(
  service: JsonService,
  operation: string,
  input: object,
): Promise<Output> {
  const response = await sendAws(jsonRequest(service, operation, input), { readError: jsonError });
  const text = (await readAll(response.body)).toString('utf8');
  return (text ? JSON.parse(text) : {}) as Output;
}
