/**
 * From an HTTP request a function sends to AWS to the authorizations AWS makes of it: which
 * actions on which resources, with which condition keys. Pure: no I/O, no clock. Each service's
 * rules are in its own module; this one picks the module by the request's signing service, and
 * the evaluation (`iam-evaluation.ts`) adds the global condition keys of the caller.
 */
import type { AuthorizationRequest, AwsHttpRequest, SigningService } from './authorization-request.js';
import { type DynamoDbTranslation, dynamoDbAuthorizations } from './dynamodb-request-actions.js';
import {
  eventsAuthorizations,
  type KmsTranslation,
  kmsAuthorizations,
  lambdaAuthorizations,
  secretsManagerAuthorizations,
  sqsAuthorizations,
} from './json-service-request-actions.js';
import { s3Authorizations } from './s3-request-actions.js';

export type {
  AuthorizationRequest,
  AwsAccount,
  AwsHttpRequest,
  SigningService,
} from './authorization-request.js';
export { PROJECT_TABLE_KEY_SCHEMA } from './dynamodb-request-actions.js';
export { s3RequestNeedsBody } from './s3-request-actions.js';

/** The account and region of the ARNs, and what a request alone does not say (key schemas, aliases). */
export type RequestTranslation = DynamoDbTranslation & KmsTranslation;

const SERVICES: Record<
  SigningService,
  (request: AwsHttpRequest, translation: RequestTranslation) => AuthorizationRequest[]
> = {
  dynamodb: dynamoDbAuthorizations,
  s3: s3Authorizations,
  kms: kmsAuthorizations,
  sqs: sqsAuthorizations,
  lambda: lambdaAuthorizations,
  events: eventsAuthorizations,
  secretsmanager: secretsManagerAuthorizations,
};

/** Whether the endpoint knows a signing service. */
export const isKnownService = (service: string): service is SigningService => service in SERVICES;

/**
 * The authorizations AWS would make of one request to a service, in the order AWS makes them
 * (a copy: the write, then the source's read). Throws for a request it cannot read, so that the
 * endpoint refuses what it cannot check.
 *
 * @example
 * authorizationRequestsOf(request, 'dynamodb', { region: 'eu-west-1', accountId: '123456789012' });
 * // [{ action: 'dynamodb:GetItem', resource: 'arn:aws:dynamodb:eu-west-1:123456789012:table/t',
 * //    context: { 'dynamodb:LeadingKeys': ['T#1#OBJECT#7'] } }]
 */
export function authorizationRequestsOf(
  request: AwsHttpRequest,
  service: SigningService,
  translation: RequestTranslation,
): AuthorizationRequest[] {
  return SERVICES[service](request, translation);
}
