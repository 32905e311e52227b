/**
 * The responses AWS gives a call IAM refuses, and a call signed with a key it does not know, in
 * each service's own error shape, so that the SDK and our own request code read the same error
 * code and status as in AWS:
 * - DynamoDB: 400, `{"__type":"com.amazon.coral.service#AccessDeniedException","Message":…}`;
 * - S3: 403, the XML `<Error><Code>AccessDenied</Code>…` (no body for HEAD);
 * - KMS, EventBridge, Secrets Manager: 400, `{"__type":"AccessDeniedException","message":…}`;
 * - SQS (JSON protocol, query-compatible errors): 403, `x-amzn-query-error: AccessDenied;Sender`;
 * - Lambda: 403, `x-amzn-errortype: AccessDeniedException`, `{"Message":…}`.
 */
import { randomUUID } from 'node:crypto';

/** A response the endpoint writes itself (a refusal, or a local emulator's response). */
export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const xmlEscape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** A new request id, as the services write them. */
export const newRequestId = (): string => randomUUID();

/** An S3 error response: the status and `<Error><Code>…</Code><Message>…</Message>…</Error>`. */
export function s3ErrorResponse(
  status: number,
  code: string,
  message: string,
  requestId: string,
): ServiceResponse {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><RequestId>${requestId}</RequestId>` +
    `<HostId>${Buffer.from(requestId).toString('base64')}</HostId></Error>`;
  return {
    status,
    headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId },
    body: Buffer.from(xml),
  };
}

function jsonError(
  status: number,
  headers: Record<string, string>,
  document: Record<string, string>,
  requestId: string,
): ServiceResponse {
  return {
    status,
    headers: { 'x-amzn-requestid': requestId, ...headers },
    body: Buffer.from(JSON.stringify(document)),
  };
}

/**
 * The response to a call IAM refused, as the service writes it.
 *
 * @example
 * accessDeniedResponse('dynamodb', 'User: arn:aws:sts::…:assumed-role/… is not authorized to perform: …', newRequestId());
 */
export function accessDeniedResponse(service: string, message: string, requestId: string): ServiceResponse {
  if (service === 's3') return s3ErrorResponse(403, 'AccessDenied', message, requestId);
  return jsonServiceError(
    service,
    { code: 'AccessDeniedException', queryCode: 'AccessDenied' },
    message,
    requestId,
  );
}

/** The response to a call signed with an access key id the endpoint does not know. */
export function unknownCallerResponse(service: string, requestId: string): ServiceResponse {
  if (service === 's3') {
    return s3ErrorResponse(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      requestId,
    );
  }
  return jsonServiceError(
    service,
    { code: 'UnrecognizedClientException', queryCode: 'InvalidClientTokenId' },
    'The security token included in the request is invalid.',
    requestId,
  );
}

/**
 * An error of a JSON-protocol service in its own shape: DynamoDB's and SQS's qualified
 * `__type` (SQS also names the query-protocol code its SDK reads), Lambda's REST error, and the
 * other JSON services' plain `__type`.
 */
function jsonServiceError(
  service: string,
  error: { code: string; queryCode: string },
  message: string,
  requestId: string,
): ServiceResponse {
  switch (service) {
    case 'dynamodb':
      return jsonError(
        400,
        { 'content-type': 'application/x-amz-json-1.0' },
        { __type: `com.amazon.coral.service#${error.code}`, Message: message },
        requestId,
      );
    case 'sqs':
      return jsonError(
        403,
        { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': `${error.queryCode};Sender` },
        { __type: `com.amazon.coral.service#${error.code}`, message },
        requestId,
      );
    case 'lambda':
      return jsonError(
        403,
        { 'content-type': 'application/json', 'x-amzn-errortype': error.code },
        { Type: 'User', Message: message },
        requestId,
      );
    default:
      return jsonError(
        400,
        { 'content-type': 'application/x-amz-json-1.1' },
        { __type: error.code, message },
        requestId,
      );
  }
}
