/** The object entity as the API shows it (spec 2.2). */
import type { ObjectRecord } from '#repositories/object-repository.js';

export interface ObjectView {
  id: string;
  externalId: string;
  name: string;
  description: string;
  summary: string | null;
  owner: string;
  status: string;
  categoryId: string;
  subcategoryId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  blockchain: { txId: string; lastTxId: string; eventCount: number };
}

export function toObjectView(record: ObjectRecord): ObjectView {
  return {
    id: record.id,
    externalId: record.externalId,
    name: record.name,
    description: record.description,
    summary: record.summary,
    owner: record.owner,
    status: record.status,
    categoryId: record.categoryId,
    subcategoryId: record.subcategoryId,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    blockchain: { txId: record.txId, lastTxId: record.lastTxId, eventCount: record.eventCount },
  };
}
