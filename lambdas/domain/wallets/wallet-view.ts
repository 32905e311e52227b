/**
 * The wallet as the API shows it (spec 2.5). Built field by field from the record, so that the
 * password hash, the session version and the login bookkeeping can never reach a response.
 */
import type { WalletRecord } from '#repositories/wallet-repository.js';

export interface WalletView {
  id: string;
  username: string;
  appId: string;
  fullUsername: string;
  status: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
}

/** The detail response (get wallet) adds the wallet's statistics. */
export interface WalletDetailView extends WalletView {
  stats: { loginCount: number; apiCallCount: number; lastApiCallAt: string | null };
}

/** `username@appId`: how a wallet names itself at login and in the ledger. */
export const fullUsernameOf = (username: string, appId: string): string => `${username}@${appId}`;

export function toWalletView(record: WalletRecord): WalletView {
  return {
    id: record.id,
    username: record.username,
    appId: record.appId,
    fullUsername: fullUsernameOf(record.username, record.appId),
    status: record.status,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    lastLoginAt: record.lastLoginAt,
  };
}

export function toWalletDetailView(record: WalletRecord): WalletDetailView {
  return {
    ...toWalletView(record),
    stats: {
      loginCount: record.loginCount,
      apiCallCount: record.apiCallCount,
      lastApiCallAt: record.lastApiCallAt,
    },
  };
}
