/**
 * API Gateway's own responses (no Lambda runs: bad key, unknown route, throttling, quota, ...)
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
  /** The message is this key of the authorizer's context (a Deny names its reason there). */
  errorFromAuthorizerContext?: string;
}

/** Every gateway response the stack defines, by API Gateway response type. */
const ALL_GATEWAY_RESPONSES: Readonly<Record<string, GatewayResponseSetting>> = {
  ...GATEWAY_RESPONSES,
  ...USAGE_PLAN_GATEWAY_RESPONSES,
};

/**
 * The body template of one gateway response. `$context.requestTime` is substituted by API
 * Gateway; JSON.stringify escapes the fixed texts.
 */
function gatewayResponseTemplate(
  type: GatewayResponseType | keyof typeof USAGE_PLAN_GATEWAY_RESPONSES,
): string {
  const { error, code, errorFromAuthorizerContext } = ALL_GATEWAY_RESPONSES[type] as GatewayResponseSetting;
  return JSON.stringify({
    error: errorFromAuthorizerContext ? `$context.authorizer.${errorFromAuthorizerContext}` : error,
    code,
    timestamp: '$context.requestTime',
  });
}

/**
 * The `Access-Control-Allow-Origin` of gateway responses, so that a page can read the error:
 * the one allowed origin, or `*` when several are (a gateway response cannot pick one; its
 * bodies are errors only, and the API takes no cookies); none without CORS.
 */
function gatewayResponseAllowOrigin(corsOrigins: readonly string[]): string | undefined {
  if (corsOrigins.length === 0) return undefined;
  return corsOrigins.length === 1 ? (corsOrigins[0] as string) : '*';
}

/**
 * Adds one gateway response per entry of {@link GATEWAY_RESPONSES} and
 * {@link USAGE_PLAN_GATEWAY_RESPONSES}, with the CORS header when origins are allowed.
 *
 * @example
 * addGatewayResponses(restApi, ['https://console.example.com']);
 */
export function addGatewayResponses(restApi: RestApi, corsOrigins: readonly string[] = []): void {
  const allowOrigin = gatewayResponseAllowOrigin(corsOrigins);
  for (const [type, response] of Object.entries(ALL_GATEWAY_RESPONSES)) {
    restApi.addGatewayResponse(`${type}Response`, {
      type: ResponseType.of(type),
      statusCode: String(response.statusCode),
      // Header values are mapping expressions: a literal needs single quotes.
      responseHeaders: {
        'Content-Type': "'application/json'",
        ...(allowOrigin ? { 'Access-Control-Allow-Origin': `'${allowOrigin}'`, Vary: "'Origin'" } : {}),
      },
      templates: { 'application/json': gatewayResponseTemplate(type as GatewayResponseType) },
    });
  }
}
