/** In-process calls of the log's operations (and an object's events), as API Gateway would make them. */

import { handler as getCheckpoint } from '../../lambdas/handlers/ledger/get-checkpoint';
import { handler as getConsistency } from '../../lambdas/handlers/ledger/get-consistency';
import { handler as getEventProof } from '../../lambdas/handlers/ledger/get-event-proof';
import { handler as getKey } from '../../lambdas/handlers/ledger/get-key';
import { handler as getObjectBundle } from '../../lambdas/handlers/ledger/get-object-bundle';
import { handler as getTile } from '../../lambdas/handlers/ledger/get-tile';
import { handler as getObject } from '../../lambdas/handlers/objects/get-object';
import { handler as listObjectEvents } from '../../lambdas/handlers/objects/list-object-events';
import type { Principal } from '../../lambdas/shared/principal';
import type { LedgerBundle } from '../../verifier/index';
import { invoke, lambdaContext, proxyEvent } from './api-events';

/** A raw (non-JSON) response: status, headers and the body's bytes. */
async function invokeRaw(handler: typeof getTile, options: Parameters<typeof proxyEvent>[0]) {
  const result = await handler(proxyEvent(options), lambdaContext);
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    bytes: Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'),
    text: () => Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8').toString('utf8'),
  };
}

export const requestCheckpoint = (principal: Principal) =>
  invokeRaw(getCheckpoint, { method: 'GET', path: '/v2/ledger/checkpoint', principal });

export const requestKey = (principal: Principal) =>
  invokeRaw(getKey, { method: 'GET', path: '/v2/ledger/key', principal });

export const requestTile = (principal: Principal, tilePath: string) =>
  invokeRaw(getTile, {
    method: 'GET',
    path: `/v2/ledger/${tilePath}`,
    principal,
    pathParameters: { tilePath: tilePath.replace(/^tile\//, '') },
  });

export const requestConsistency = (principal: Principal, from: number, to: number) =>
  invoke(getConsistency, {
    method: 'GET',
    path: '/v2/ledger/consistency',
    principal,
    query: { from: String(from), to: String(to) },
  });

const proofOptions = (
  principal: Principal,
  objectId: string,
  sequence: number,
  query?: Record<string, string>,
) => ({
  method: 'GET',
  path: `/v2/objects/${objectId}/events/${sequence}/proof`,
  principal,
  pathParameters: { objectId, sequence: String(sequence) },
  query,
});

export const requestProof = (
  principal: Principal,
  objectId: string,
  sequence: number,
  query?: Record<string, string>,
) => invoke(getEventProof, proofOptions(principal, objectId, sequence, query));

export const requestTlogProof = (principal: Principal, objectId: string, sequence: number) =>
  invokeRaw(getEventProof, proofOptions(principal, objectId, sequence, { format: 'tlog-proof' }));

export async function requestEvents(principal: Principal, objectId: string) {
  const response = await invoke(listObjectEvents, {
    method: 'GET',
    path: `/v2/objects/${objectId}/events`,
    principal,
    pathParameters: { objectId },
    query: { limit: '100' },
  });
  return response.body.data as Array<Record<string, unknown>>;
}

/** GET /v2/objects/{objectId}/bundle, with `asOf` or `atSequence` in `query`. */
export const requestBundle = (principal: Principal, objectId: string, query?: Record<string, string>) =>
  invoke(getObjectBundle, {
    method: 'GET',
    path: `/v2/objects/${objectId}/bundle`,
    principal,
    pathParameters: { objectId },
    query,
  });

/** The bundle assembled from one request per event (the console's way before the bundle endpoint). */
export async function bundleFromApi(principal: Principal, objectId: string): Promise<LedgerBundle> {
  const object = await invoke(getObject, {
    method: 'GET',
    path: `/v2/objects/${objectId}`,
    principal,
    pathParameters: { objectId },
  });
  const events = await requestEvents(principal, objectId);
  const proofs = await Promise.all(
    events.map(async (event) =>
      (await requestTlogProof(principal, objectId, event.sequence as number)).text(),
    ),
  );
  return {
    format: 'asset-registry-ledger-bundle@v1',
    object: object.body,
    events,
    proofs,
    checkpoint: (await requestCheckpoint(principal)).text(),
    verifierKey: (await requestKey(principal)).text().trim(),
  };
}
