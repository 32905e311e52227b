/**
 * The rules of wallets (spec 4.11-4.15): creation, reading, listing, change and soft deletion,
 * always within one App. A wallet calling with its own session token sees only its own record.
 */
import { randomUUID } from 'node:crypto';
import {
  findWallet,
  insertWallet,
  listWallets as listWalletRecords,
  markWalletDeleted,
  replaceWallet,
  StaleWalletError,
  usernameKeyOf,
  type WalletRecord,
} from '#repositories/wallet-repository.js';
import { nextTimestamp, nowIso } from '#shared/clock.js';
import { NotFoundError } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import {
  type CursorPage,
  type PagePosition,
  type PageScope,
  pagePositionOf,
  toCursorPage,
} from '#shared/page-cursor.js';
import type { Principal } from '#shared/principal.js';
import { type Infer, UUID_PATTERN } from '#shared/schema.js';
import { hashPassword } from './password-hash.js';
import type { createWalletBody, listWalletsQuery, updateWalletBody } from './wallet-schemas.js';
import { toWalletDetailView, toWalletView, type WalletDetailView, type WalletView } from './wallet-view.js';

type CreateWalletInput = Infer<typeof createWalletBody.shape>;
type UpdateWalletInput = Infer<typeof updateWalletBody.shape>;
type ListWalletsInput = Infer<typeof listWalletsQuery.shape>;

/** Whose wallets a caller may see: an App's, or, for a wallet, only its own. */
export interface WalletScope {
  appId: string;
  /** Set for a wallet principal: every other wallet is invisible to it. */
  ownWalletId?: string;
}

/** The scope of a caller the handler already checked to be of kind `app`. */
export const walletScopeOf = (principal: Principal): WalletScope => ({
  appId: principal.tenantId,
  ownWalletId: principal.wallet?.id,
});

const walletNotFound = (walletId: string) =>
  new NotFoundError('RESOURCE_NOT_FOUND', `No wallet ${walletId} in this App`);

/**
 * A wallet the scope may see: not deleted, of the App, and the caller's own for a wallet. Ids
 * are UUIDs in any case; any other text names no wallet.
 */
async function findVisibleWallet(scope: WalletScope, pathWalletId: string): Promise<WalletRecord> {
  const walletId = pathWalletId.toLowerCase();
  const visible =
    UUID_PATTERN.test(walletId) && (scope.ownWalletId === undefined || scope.ownWalletId === walletId);
  const record = visible ? await findWallet(scope.appId, walletId) : undefined;
  if (!record || record.status === 'deleted') throw walletNotFound(pathWalletId);
  return record;
}

/**
 * Creates an `active` wallet of the App; the password is kept only as a scrypt hash.
 *
 * @example
 * const wallet = await createWallet(appId, { username: 'scanner-01', password: 'long enough' });
 * wallet.fullUsername // `scanner-01@${appId}`
 */
export async function createWallet(appId: string, input: CreateWalletInput): Promise<WalletView> {
  const passwordHash = await hashPassword(input.password);
  const createdAt = nowIso();
  const record: WalletRecord = {
    id: randomUUID(),
    appId,
    username: input.username,
    status: 'active',
    metadata: input.metadata ?? {},
    createdAt,
    updatedAt: createdAt,
    lastLoginAt: null,
    passwordHash,
    sessionVersion: 1,
    version: 1,
    loginCount: 0,
    apiCallCount: 0,
    lastApiCallAt: null,
  };
  await insertWallet(record);
  return toWalletView(record);
}

/** Reads one wallet with its statistics; 404 `RESOURCE_NOT_FOUND` for unknown, foreign and deleted ids. */
export async function getWallet(scope: WalletScope, walletId: string): Promise<WalletDetailView> {
  return toWalletDetailView(await findVisibleWallet(scope, walletId));
}

/**
 * Applies the given fields (omitted ones stay) and moves `updatedAt`. A new password, or a move
 * to `inactive` or `suspended`, ends every session of the wallet at once. `metadata`, when given,
 * replaces the stored one.
 */
export async function updateWallet(
  scope: WalletScope,
  walletId: string,
  changes: UpdateWalletInput,
): Promise<WalletView> {
  const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  return retryLostRaces(
    'wallet',
    (error) => error instanceof StaleWalletError,
    async () => {
      const before = await findVisibleWallet(scope, walletId);
      const status = changes.status ?? before.status;
      const endsSessions = passwordHash !== undefined || (status !== before.status && status !== 'active');
      const after: WalletRecord = {
        ...before,
        status,
        metadata: changes.metadata ?? before.metadata,
        passwordHash: passwordHash ?? before.passwordHash,
        sessionVersion: endsSessions ? before.sessionVersion + 1 : before.sessionVersion,
        updatedAt: nextTimestamp(before.updatedAt),
        version: before.version + 1,
      };
      await replaceWallet(before, after);
      return toWalletView(after);
    },
  );
}

/**
 * Soft-deletes a wallet: its record stays with status `deleted`, its sessions end, it leaves
 * every list and read (404 afterwards), and its username is free for a new wallet.
 */
export async function deleteWallet(scope: WalletScope, walletId: string): Promise<void> {
  await retryLostRaces(
    'wallet',
    (error) => error instanceof StaleWalletError,
    async () => {
      const before = await findVisibleWallet(scope, walletId);
      await markWalletDeleted(before, nextTimestamp(before.updatedAt));
    },
  );
}

/** A page of the App's wallets, filtered and sorted as asked; a wallet sees only itself. */
export async function listWallets(
  scope: WalletScope,
  query: ListWalletsInput,
): Promise<CursorPage<WalletView>> {
  // A wallet's own view is another list than its App's: cursors of one do not read the other.
  const pageScope: PageScope = {
    tenantId: scope.appId,
    list: scope.ownWalletId === undefined ? 'wallets' : `wallets:own:${scope.ownWalletId}`,
    parameters: { status: query.status, username: query.username, sort: query.sort },
  };
  const position = await pagePositionOf(query, pageScope);
  if (scope.ownWalletId !== undefined)
    return listOwnWallet(scope, scope.ownWalletId, query, position, pageScope);
  const { records, total, lastKey } = await listWalletRecords(scope.appId, {
    status: query.status,
    usernameContains: query.username,
    sort: query.sort,
    limit: position.limit,
    offset: position.offset,
    startAfter: position.startAfter,
  });
  return toCursorPage(records.map(toWalletView), position, total, pageScope, lastKey);
}

/** The list as a wallet sees it: its own record when it matches the filters, on the page asked. */
async function listOwnWallet(
  scope: WalletScope,
  walletId: string,
  query: ListWalletsInput,
  position: PagePosition,
  pageScope: PageScope,
) {
  const record = await findWallet(scope.appId, walletId);
  const matches =
    record !== undefined &&
    record.status !== 'deleted' &&
    (query.status === 'all' || record.status === query.status) &&
    (query.username === undefined || usernameKeyOf(record.username).includes(usernameKeyOf(query.username)));
  const matching = matches ? [toWalletView(record)] : [];
  const page = matching.slice(position.offset, position.offset + position.limit);
  return toCursorPage(page, position, matching.length, pageScope);
}
