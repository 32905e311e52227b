/**
 * The wallet as the API shows it (spec 2.5). Views show only the attributes the entity does not
 * hide, so the password hash, the session version and the login bookkeeping never reach a response.
 */
import { WALLET_STATUSES, type WalletRecord, walletEntity } from '#repositories/wallet-entity.js';
import { computed, defineView, group, shownAs, type ViewOf } from '#shared/entity.js';
import { oneOf, string } from '#shared/schema.js';

/** Deleted wallets are never shown, so views say only the other statuses. */
const shownStatus = shownAs('status', { schema: oneOf(WALLET_STATUSES) });
const fullUsername = computed(string(), { description: '`username@appId`', after: 'appId' });

export const walletView = defineView(walletEntity, {
  name: 'Wallet',
  description: 'Spec 2.5 (the password is never returned)',
  omit: ['loginCount', 'apiCallCount', 'lastApiCallAt'],
  fields: { status: shownStatus, fullUsername },
});
export type WalletView = ViewOf<typeof walletView>;

/** The detail response (get wallet) adds the wallet's statistics. */
export const walletDetailView = defineView(walletEntity, {
  name: 'WalletDetail',
  description: 'Spec 2.5, detail response',
  fields: {
    status: shownStatus,
    fullUsername,
    stats: group(['loginCount', 'apiCallCount', 'lastApiCallAt']),
  },
});
export type WalletDetailView = ViewOf<typeof walletDetailView>;

/** `username@appId`: how a wallet names itself at login and in the ledger. */
export const fullUsernameOf = (username: string, appId: string): string => `${username}@${appId}`;

export const toWalletView = (record: WalletRecord): WalletView =>
  walletView.toView(record, { fullUsername: fullUsernameOf(record.username, record.appId) });

export const toWalletDetailView = (record: WalletRecord): WalletDetailView =>
  walletDetailView.toView(record, { fullUsername: fullUsernameOf(record.username, record.appId) });
