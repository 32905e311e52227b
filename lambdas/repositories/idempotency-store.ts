/**
 * Where idempotency records live: the single table, in a partition of the tenant
 * (`T#<tenant>#IDEMPOTENCY`), removed by DynamoDB's TTL after they expire.
 */
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { dynamoDbClient, tableName } from '#shared/clients.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { tenantPartition } from './tenant-keys.js';

/** The partition of a tenant's idempotency records; `lib/` grants `idempotencyPartition('*')`. */
export const idempotencyPartition = (tenantId: string): string => `${tenantPartition(tenantId)}#IDEMPOTENCY`;

/** The Powertools persistence layer of one tenant's idempotency records. */
export function idempotencyStore(tenantId: string): DynamoDBPersistenceLayer {
  return new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: 'pk',
    sortKeyAttr: 'sk',
    staticPkValue: idempotencyPartition(tenantId),
    expiryAttr: TIME_TO_LIVE_ATTRIBUTE,
    awsSdkV3Client: dynamoDbClient,
  });
}
