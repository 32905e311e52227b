/**
 * API Gateway's own answers (no Lambda runs: bad key, unknown route, throttling, quota, ...)
 * in the spec's error format, from the settings the local gateway shares.
 */
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseType,
  USAGE_PLAN_GATEWAY_RESPONSES,
} from './api-gateway-settings.js';

interface GatewayResponseSetting {
  statusCode: number;
  code: string;
  error: string;
}

/** Every gateway response the stack defines, by API Gateway response type. */
export const ALL_GATEWAY_RESPONSES: Readonly<Record<string, GatewayResponseSetting>> = {
  ...GATEWAY_RESPONSES,
  ...USAGE_PLAN_GATEWAY_RESPONSES,
};

/**
 * The body template of one gateway response. `$context.requestTime` is substituted by API
 * Gateway; JSON.stringify escapes the fixed texts.
 */
export function gatewayResponseTemplate(
  type: GatewayResponseType | keyof typeof USAGE_PLAN_GATEWAY_RESPONSES,
): string {
  const { error, code } = ALL_GATEWAY_RESPONSES[type] as GatewayResponseSetting;
  return JSON.stringify({ error, code, timestamp: '$context.requestTime' });
}

/**
 * Adds one gateway response per entry of {@link GATEWAY_RESPONSES} and
 * {@link USAGE_PLAN_GATEWAY_RESPONSES}.
 *
 * @example
 * addGatewayResponses(restApi);
 */
export function addGatewayResponses(restApi: RestApi): void {
  for (const [type, response] of Object.entries(ALL_GATEWAY_RESPONSES)) {
    restApi.addGatewayResponse(`${type}Response`, {
      type: ResponseType.of(type),
      statusCode: String(response.statusCode),
      // Header values are mapping expressions: a literal needs single quotes.
      responseHeaders: { 'Content-Type': "'application/json'" },
      templates: { 'application/json': gatewayResponseTemplate(type as GatewayResponseType) },
    });
  }
}
