/**
 * API Gateway's own answers (no Lambda runs: bad key, unknown route, throttling, ...) in the
 * spec's error format, from the settings the local gateway shares.
 */
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_RESPONSES, type GatewayResponseType } from './api-gateway-settings.js';

/**
 * The body template of one gateway response. `$context.requestTime` is substituted by API
 * Gateway; JSON.stringify escapes the fixed texts.
 */
export function gatewayResponseTemplate(type: GatewayResponseType): string {
  const { error, code } = GATEWAY_RESPONSES[type];
  return JSON.stringify({ error, code, timestamp: '$context.requestTime' });
}

/**
 * Adds one gateway response per entry of {@link GATEWAY_RESPONSES}.
 *
 * @example
 * addGatewayResponses(restApi);
 */
export function addGatewayResponses(restApi: RestApi): void {
  for (const [type, response] of Object.entries(GATEWAY_RESPONSES)) {
    restApi.addGatewayResponse(`${type}Response`, {
      type: ResponseType.of(type),
      statusCode: String(response.statusCode),
      // Header values are mapping expressions: a literal needs single quotes.
      responseHeaders: { 'Content-Type': "'application/json'" },
      templates: { 'application/json': gatewayResponseTemplate(type as GatewayResponseType) },
    });
  }
}
