/**
 * API Gateway REQUEST authorizer. It maps `X-API-Key` to a principal (company or App, and its
 * permissions) and allows the whole API: its answer is cached per key for a short TTL and used
 * for every route, so per-operation permission checks happen in the handlers, against the
 * operation table, where they can answer 403 in the spec's format.
 * A missing, unknown or revoked key is refused with "Unauthorized", which API Gateway answers
 * with 401 through the UNAUTHORIZED gateway response.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { resolveApiKey } from '#domain/identity/api-keys.js';
import { headerValue } from '#shared/http-request.js';
import { toAuthorizerContext } from '#shared/principal.js';
import { API_KEY_HEADER } from '../../lib/api-gateway-settings.js';

/** `arn:...:apiId/stage/VERB/path` → `arn:...:apiId/stage/*` (the cached answer fits every route). */
export function wholeApiArn(methodArn: string): string {
  const [arnPrefix, apiId, stage] = methodArn.split('/');
  return `${arnPrefix}/${apiId}/${stage}/*`;
}

export const handler = async (
  event: APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewayAuthorizerResult> => {
  const apiKey = headerValue(event.headers, API_KEY_HEADER);
  const principal = apiKey ? await resolveApiKey(apiKey) : undefined;
  // This exact message is what makes API Gateway answer 401 instead of 500.
  if (!principal) throw new Error('Unauthorized');
  return {
    principalId: principal.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiArn(event.methodArn) }],
    },
    context: toAuthorizerContext(principal),
  };
};
