/** Building API Gateway proxy responses. */
import type { APIGatewayProxyResult } from 'aws-lambda';

/** A JSON response; `body` undefined gives an empty body (for 204). */
export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  if (body === undefined) return { statusCode, headers, body: '' };
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}
