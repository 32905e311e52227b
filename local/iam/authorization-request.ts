/**
 * What the local AWS endpoint hands from a request's translation (`aws-request-actions.ts`) to
 * the evaluation (`iam-evaluation.ts`): the HTTP request as it arrived, and each authorization
 * AWS would make of it.
 */

/** An HTTP request as an SDK client or our own signed requests send it. */
export interface AwsHttpRequest {
  method: string;
  /** As sent: percent-encoded, without the query. */
  path: string;
  /** Decoded names and values. */
  query: Record<string, string | string[] | undefined>;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** Empty where the endpoint does not need to read it (an S3 upload's bytes). */
  body: Buffer;
}

/** One authorization AWS makes before it serves a request (a request may need several). */
export interface AuthorizationRequest {
  /** `dynamodb:Query` */
  action: string;
  /** `arn:aws:dynamodb:eu-west-1:123456789012:table/t/index/gsi1`, or `*` for account-wide actions. */
  resource: string;
  /** Condition keys with the values the request gives them (`dynamodb:LeadingKeys`, `s3:prefix`). */
  context: Record<string, string | string[]>;
}

/** Where the resources are: the ARNs' partition, region and account. */
export interface AwsAccount {
  /** `aws` unless told otherwise. */
  partition?: string;
  region: string;
  accountId: string;
}

/** The services the endpoint knows, by their SigV4 signing name. */
export type SigningService = 'dynamodb' | 's3' | 'kms' | 'sqs' | 'lambda' | 'events' | 'secretsmanager';

/** The header value as one string (the first, when repeated). */
export const headerOf = (
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The query parameter as one string (the first, when repeated). */
export const queryOf = (query: AwsHttpRequest['query'], name: string): string | undefined => {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Whether the query names a parameter, with or without a value (`?uploads`, `?delete`). */
export const hasQuery = (query: AwsHttpRequest['query'], name: string): boolean => query[name] !== undefined;

/** The JSON body of a request, or an empty object when there is none. */
export function jsonBodyOf(request: AwsHttpRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  return JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
}
