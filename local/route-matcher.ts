/**
 * Matches a request path to an operation of the table, as API Gateway does: literal segments
 * win over `{parameter}` segments, so `/v2/wallets/login` beats `/v2/wallets/{walletId}`, and a
 * last `{parameter+}` segment takes the rest of the path (slashes included).
 */

import { methodsOfRow, type Operation } from '../lambdas/operation-row.js';
import { type OperationId, operationList } from '../lambdas/operations.js';

export interface RouteMatch {
  operation: Operation & { id: OperationId };
  pathParameters: Record<string, string>;
}

type Segment = { literal: string } | { parameter: string; greedy?: boolean };

const routes = operationList.map((operation) => ({
  operation,
  segments: operation.path
    .split('/')
    .filter(Boolean)
    .map((segment): Segment => {
      const parameter = /^\{(.+?)(\+?)\}$/.exec(segment);
      return parameter
        ? { parameter: parameter[1] as string, greedy: parameter[2] === '+' }
        : { literal: segment };
    }),
}));

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The method of the routes that also return `HEAD` (the stack adds a HEAD method beside a document's GET). */
const methodOfRoute = (method: string): string => (method === 'HEAD' ? 'GET' : method);

/**
 * The operation for a method and path, or undefined (API Gateway's "missing authentication
 * token"). `HEAD` finds the GET route of a document (`methodsOfRow`); `'*'` finds a route of any method (a preflight asks
 * whether the path exists).
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const requestSegments = path.split('/').filter(Boolean);
  const routeMethod = methodOfRoute(method);
  let best: { match: RouteMatch; literalCount: number } | undefined;
  for (const route of routes) {
    const last = route.segments.at(-1);
    const greedy = last !== undefined && 'parameter' in last && last.greedy === true;
    if (routeMethod !== '*' && route.operation.method !== routeMethod) continue;
    if (method === 'HEAD' && !methodsOfRow(route.operation).includes('HEAD')) continue;
    if (
      greedy
        ? requestSegments.length < route.segments.length
        : route.segments.length !== requestSegments.length
    )
      continue;
    const pathParameters: Record<string, string> = {};
    let literalCount = 0;
    const matches = route.segments.every((segment, index) => {
      const value = requestSegments[index] as string;
      if ('literal' in segment) {
        literalCount++;
        return segment.literal === value;
      }
      pathParameters[segment.parameter] = segment.greedy
        ? requestSegments.slice(index).map(decodeSegment).join('/')
        : decodeSegment(value);
      return true;
    });
    if (matches && (!best || literalCount > best.literalCount)) {
      best = { match: { operation: route.operation, pathParameters }, literalCount };
    }
  }
  return best?.match;
}
