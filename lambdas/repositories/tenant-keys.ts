/**
 * Keys of the items that belong to a tenant (company or App) as a whole. Every partition key
 * starts with the tenant, so one tenant's query can never reach another's items.
 */
import { tenantCountersKeys, tenantKeys } from './table-keys.js';

export const tenantPartition = (tenantId: string): string => tenantKeys.partition({ tenantId });

/** The tenant's counters item (list totals), updated in the same transaction as each write. */
export const countersKey = (tenantId: string) => tenantCountersKeys.key({ tenantId });
