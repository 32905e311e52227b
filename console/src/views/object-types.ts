/** What the API answers for objects, their files and their events (spec 2.2, 2.6; README "The ledger"). */
export interface RegistryObject {
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

export interface FileRecord {
  id: string;
  fileName: string;
  originalFileName: string;
  mimeType: string;
  size: number;
  description: string;
  tags: string[];
  uploadedAt: string;
  uploadedBy: string;
  url: string;
  checksum: string;
}

export interface LedgerEvent {
  sequence: number;
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  eventDescription: string | null;
  performedBy: string | null;
  principal: string;
  timestamp: string;
  prevHash: string;
  hash: string;
}
