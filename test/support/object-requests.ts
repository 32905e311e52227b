/**
 * Calls of the object handlers in process, as API Gateway would make them, for the
 * integration tests. Each returns the status, headers and parsed JSON body.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectView } from '../../lambdas/domain/objects/object-view';
import { handler as createObjectHandler } from '../../lambdas/handlers/objects/create-object';
import { handler as getCompanyObjectHandler } from '../../lambdas/handlers/objects/get-company-object';
import { handler as getObjectHandler } from '../../lambdas/handlers/objects/get-object';
import { handler as listObjectEventsHandler } from '../../lambdas/handlers/objects/list-object-events';
import { handler as listObjectsHandler } from '../../lambdas/handlers/objects/list-objects';
import { handler as listSubcategoryObjectsHandler } from '../../lambdas/handlers/objects/list-subcategory-objects';
import { handler as updateObjectHandler } from '../../lambdas/handlers/objects/update-object';
import type { Principal } from '../../lambdas/shared/principal';
import { type EventOptions, invoke } from './api-events';

type Extra = Pick<EventOptions, 'rawBody' | 'headers'>;

/** Where an object is created: a category and one of its subcategories. */
export interface ObjectPlace {
  categoryId: string;
  subcategoryId: string;
}

/** The object entity of spec 2.2, as the tests read it: the view the API responds with. */
export type ObjectBody = ObjectView;

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const postObject = (
  principal: Principal | undefined,
  place: ObjectPlace,
  body: unknown,
  extra: Extra = {},
) =>
  invoke(createObjectHandler, {
    method: 'POST',
    path: `/v2/categories/${place.categoryId}/subcategories/${place.subcategoryId}/objects`,
    resource: '/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects',
    principal,
    pathParameters: { categoryId: place.categoryId, subcategoryId: place.subcategoryId },
    body,
    ...extra,
  });

export const putObject = (
  principal: Principal | undefined,
  objectId: string,
  body: unknown,
  extra: Extra = {},
) =>
  invoke(updateObjectHandler, {
    method: 'PUT',
    path: `/v2/objects/${objectId}`,
    resource: '/v2/objects/{objectId}',
    principal,
    pathParameters: { objectId },
    body,
    ...extra,
  });

export const getObject = (
  principal: Principal | undefined,
  objectId: string,
  query?: Record<string, string>,
) =>
  invoke(getObjectHandler, {
    method: 'GET',
    path: `/v2/objects/${objectId}`,
    resource: '/v2/objects/{objectId}',
    principal,
    pathParameters: { objectId },
    query,
  });

export const getCompanyObject = (
  principal: Principal | undefined,
  companyId: string,
  objectId: string,
  query?: Record<string, string>,
) =>
  invoke(getCompanyObjectHandler, {
    method: 'GET',
    path: `/v2/companies/${companyId}/objects/${objectId}`,
    resource: '/v2/companies/{companyId}/objects/{objectId}',
    principal,
    pathParameters: { companyId, objectId },
    query,
  });

export const listObjects = (principal: Principal | undefined, query?: Record<string, string>) =>
  invoke(listObjectsHandler, { method: 'GET', path: '/v2/objects', principal, query });

/** Every object `GET /v2/objects` lists for the query, page after page by cursor. */
export async function listAllObjects(
  principal: Principal,
  query: Record<string, string> = {},
): Promise<(Record<string, unknown> & { id: string; externalId: string; name: string })[]> {
  const objects: (Record<string, unknown> & { id: string; externalId: string; name: string })[] = [];
  let cursor: string | null = null;
  do {
    const page = await listObjects(principal, { ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    if (page.statusCode !== 200) throw new Error(`list: ${JSON.stringify(page.body)}`);
    objects.push(...page.body.data);
    cursor = page.body.pagination.nextCursor;
  } while (cursor);
  return objects;
}

export const listSubcategoryObjects = (
  principal: Principal | undefined,
  place: ObjectPlace,
  query?: Record<string, string>,
) =>
  invoke(listSubcategoryObjectsHandler, {
    method: 'GET',
    path: `/v2/categories/${place.categoryId}/subcategories/${place.subcategoryId}/objects`,
    resource: '/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects',
    principal,
    pathParameters: { categoryId: place.categoryId, subcategoryId: place.subcategoryId },
    query,
  });

export const listObjectEvents = (
  principal: Principal | undefined,
  objectId: string,
  query?: Record<string, string>,
) =>
  invoke(listObjectEventsHandler, {
    method: 'GET',
    path: `/v2/objects/${objectId}/events`,
    resource: '/v2/objects/{objectId}/events',
    principal,
    pathParameters: { objectId },
    query,
  });

/** Creates an object (a fresh externalId unless given) and returns its body; fails loudly when refused. */
export async function createObjectOk(
  principal: Principal,
  place: ObjectPlace,
  body: Record<string, unknown> = {},
): Promise<ObjectBody> {
  const response = await postObject(principal, place, {
    externalId: `EXT-${randomUUID()}`,
    name: 'An object',
    ...body,
  });
  if (response.statusCode !== 201) {
    throw new Error(
      `creating ${JSON.stringify(body)} responded ${response.statusCode}: ${JSON.stringify(response.body)}`,
    );
  }
  return response.body as ObjectBody;
}

/** One object to create: where, and the fields beyond a fresh externalId and a default name. */
export interface ObjectEntry {
  place: ObjectPlace;
  body?: Record<string, unknown>;
}

/**
 * Creates objects one after the other, each in a later millisecond than the one before, so
 * that the createdAt order is exactly the creation order (ties would be broken by random ids).
 */
export async function createObjectsInOrder<const Entries extends readonly ObjectEntry[]>(
  principal: Principal,
  entries: Entries,
): Promise<{ -readonly [Index in keyof Entries]: ObjectBody }> {
  const created: ObjectBody[] = [];
  for (const { place, body } of entries) {
    const previous = created.at(-1)?.createdAt;
    while (previous !== undefined && new Date().toISOString() <= previous) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    created.push(await createObjectOk(principal, place, body));
  }
  // One body per entry, in the entries' order: a tuple in, a tuple of the same length out.
  return created as { -readonly [Index in keyof Entries]: ObjectBody };
}

/** Applies an update action, failing loudly when refused. */
export async function updateObjectOk(
  principal: Principal,
  objectId: string,
  body: Record<string, unknown>,
): Promise<ObjectBody> {
  const response = await putObject(principal, objectId, body);
  if (response.statusCode !== 200) {
    throw new Error(
      `updating with ${JSON.stringify(body)} responded ${response.statusCode}: ${JSON.stringify(response.body)}`,
    );
  }
  return response.body as ObjectBody;
}

/** The ids of a list response's items, in order. */
export const idsOf = (response: { body: { data: { id: string }[] } }): string[] =>
  response.body.data.map((item) => item.id);
