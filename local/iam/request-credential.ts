/**
 * Who signed a request and for which service, from its SigV4 credential scope
 * (`Credential=<key id>/<date>/<region>/<service>/aws4_request`): the `Authorization` header,
 * a presigned URL's `X-Amz-Credential`, or a browser form's `x-amz-credential` field.
 */
export interface RequestCredential {
  accessKeyId: string;
  region: string;
  service: string;
}

/** The parts of a credential scope, or undefined when it is not one. */
export function parseCredentialScope(scope: string): RequestCredential | undefined {
  const [accessKeyId, , region, service, terminator] = scope.split('/');
  if (!accessKeyId || !region || !service || terminator !== 'aws4_request') return undefined;
  return { accessKeyId, region, service };
}

/**
 * The credential of a request signed in its header or its query, if it is signed.
 *
 * @example
 * credentialOf('AWS4-HMAC-SHA256 Credential=LOCL0123/20261126/eu-west-1/s3/aws4_request, SignedHeaders=host, Signature=…', undefined);
 * // { accessKeyId: 'LOCL0123', region: 'eu-west-1', service: 's3' }
 */
export function credentialOf(
  authorization: string | undefined,
  queryCredential: string | undefined,
): RequestCredential | undefined {
  const scope = authorization ? /Credential=([^,\s]+)/.exec(authorization)?.[1] : queryCredential;
  return scope === undefined ? undefined : parseCredentialScope(scope);
}
