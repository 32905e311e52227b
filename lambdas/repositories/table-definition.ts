/**
 * The single table's key schema, shared by the CDK stack and the local table setup so the two
 * cannot drift. Entities use the generic key attributes; which entity puts what into them is
 * the business of each repository module.
 */
export const TABLE_PARTITION_KEY = 'pk';
export const TABLE_SORT_KEY = 'sk';
/** Items with this attribute (epoch seconds) are deleted by DynamoDB after that time. */
export const TIME_TO_LIVE_ATTRIBUTE = 'ttl';

/**
 * The table's stream carries each new item image: ledger events are published from it
 * (`lambdas/jobs/publish-ledger-events.ts`), so publication follows the committed data.
 */
export const TABLE_STREAM_VIEW_TYPE = 'NEW_IMAGE';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** Global secondary indexes, all projecting every attribute (a page is then one Query). */
export const TABLE_INDEXES: readonly IndexDefinition[] = ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'].map(
  (indexName) => ({ indexName, partitionKey: `${indexName}pk`, sortKey: `${indexName}sk` }),
);

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6';
