/**
 * The API's access log: one JSON line per request, throttled and refused ones included. It
 * names the caller by ids only (the authorizer's principal id is the key id, never the key) and
 * logs no header, no body and no query string.
 */
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

/**
 * Field → API Gateway `$context` variable. Every value is written as a JSON string: API Gateway
 * writes `-` for a value it does not have, which would break a bare number.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: AccessLogField.contextRequestId(),
  extendedRequestId: AccessLogField.contextExtendedRequestId(),
  requestTime: AccessLogField.contextRequestTime(),
  requestTimeEpoch: AccessLogField.contextRequestTimeEpoch(),
  apiId: AccessLogField.contextApiId(),
  stage: AccessLogField.contextStage(),
  ip: AccessLogField.contextIdentitySourceIp(),
  userAgent: AccessLogField.contextIdentityUserAgent(),
  httpMethod: AccessLogField.contextHttpMethod(),
  resourcePath: AccessLogField.contextResourcePath(),
  path: AccessLogField.contextPath(),
  protocol: AccessLogField.contextProtocol(),
  status: AccessLogField.contextStatus(),
  responseLength: AccessLogField.contextResponseLength(),
  responseLatency: AccessLogField.contextResponseLatency(),
  integrationStatus: AccessLogField.contextIntegrationStatus(),
  integrationLatency: AccessLogField.contextIntegrationLatency(),
  integrationError: AccessLogField.contextIntegrationErrorMessage(),
  errorType: AccessLogField.contextErrorResponseType(),
  errorMessage: AccessLogField.contextErrorMessage(),
  principalId: AccessLogField.contextAuthorizerPrincipalId(),
  principalType: AccessLogField.contextAuthorizer('principalType'),
  tenantId: AccessLogField.contextAuthorizer('tenantId'),
  authorizerStatus: AccessLogField.contextAuthorizerStatus(),
  authorizerLatency: AccessLogField.contextAuthorizerLatency(),
  authorizerError: AccessLogField.contextAuthorizerError(),
  usageKeyId: AccessLogField.contextIdentityApiKeyId(),
  xrayTraceId: AccessLogField.contextXrayTraceId(),
} as const;

/** The access log line's format: {@link ACCESS_LOG_FIELDS} as one JSON object. */
export const accessLogFormat = (): AccessLogFormat =>
  AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));
