/**
 * Where idempotency records live: the single table, in a partition of the tenant
 * (`T#<tenant>#IDEMPOTENCY`), removed by DynamoDB's TTL after they expire.
 */
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { dynamoDbClient, tableName } from '#shared/clients.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { tenantPartition } from './tenant-keys.js';

export function idempotencyStore(tenantId: string): DynamoDBPersistenceLayer {
  return new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: 'pk',
    sortKeyAttr: 'sk',
    staticPkValue: `${tenantPartition(tenantId)}#IDEMPOTENCY`,
    expiryAttr: TIME_TO_LIVE_ATTRIBUTE,
    awsSdkV3Client: dynamoDbClient,
  });
}
