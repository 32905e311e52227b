/**
 * Matches a request path to an operation of the table, as API Gateway does: literal segments
 * win over `{parameter}` segments, so `/v2/wallets/login` beats `/v2/wallets/{walletId}`.
 */
import { type Operation, type OperationId, operationList } from '../lambdas/operations.js';

export interface RouteMatch {
  operation: Operation & { id: OperationId };
  pathParameters: Record<string, string>;
}

type Segment = { literal: string } | { parameter: string };

const routes = operationList.map((operation) => ({
  operation,
  segments: operation.path
    .split('/')
    .filter(Boolean)
    .map((segment): Segment => {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      return parameter ? { parameter } : { literal: segment };
    }),
}));

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The operation for a method and path, or undefined (API Gateway's "missing authentication token"). */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const requestSegments = path.split('/').filter(Boolean);
  let best: { match: RouteMatch; literalCount: number } | undefined;
  for (const route of routes) {
    if (route.operation.method !== method || route.segments.length !== requestSegments.length) continue;
    const pathParameters: Record<string, string> = {};
    let literalCount = 0;
    const matches = route.segments.every((segment, index) => {
      const value = requestSegments[index] as string;
      if ('literal' in segment) {
        literalCount++;
        return segment.literal === value;
      }
      pathParameters[segment.parameter] = decodeSegment(value);
      return true;
    });
    if (matches && (!best || literalCount > best.literalCount)) {
      best = { match: { operation: route.operation, pathParameters }, literalCount };
    }
  }
  return best?.match;
}
