/** `GET /v2/me`: the caller, and the labels of its tenant's keys (one Query; none for a wallet). */
import { listKeyLabels } from '#repositories/identity-repository.js';
import type { Principal } from '#shared/principal.js';
import { type Caller, callerOf } from './caller.js';

/**
 * Who is calling, as `GET /v2/me` answers it.
 *
 * @example
 * const caller = await describeCaller(principal); // caller.keyLabels: [{ keyId, label: 'Auditor' }]
 */
export async function describeCaller(principal: Principal): Promise<Caller> {
  return callerOf(principal, principal.wallet ? [] : await listKeyLabels(principal.tenantId));
}
