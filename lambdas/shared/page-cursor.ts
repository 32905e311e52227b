/**
 * Cursor pagination, an extension beside the spec's `offset`: every list response carries
 * `pagination.nextCursor` (null on the last page), and `?cursor=` reads the page after it. A
 * cursor holds the page's position (the items before it, and where the index read stopped,
 * so that the next read starts there instead of skipping) and an HMAC-SHA256 with the stack's
 * key over that position and the list it belongs to: the tenant, the list (with its path ids),
 * its filters and its sort. A cursor that was forged, altered, or made for another list, filter,
 * sort or tenant fails the check: 400 `VALIDATION_ERROR`. Clients treat it as opaque text.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cursorKey } from './cursor-key.js';
import { ValidationError } from './errors.js';
import { type Page, type PageRequest, toPage } from './pagination.js';

/** The key of the last item read, where the next index read starts (DynamoDB's ExclusiveStartKey). */
export type ItemKey = Record<string, unknown>;

/** Which list a cursor belongs to: anything that changes the list's order or contents. */
export interface PageScope {
  tenantId: string;
  /** The list and its path ids, e.g. `files:<objectId>`. */
  list: string;
  /** Filters and sort as given (undefined ones are left out). */
  parameters?: Record<string, string | number | boolean | undefined>;
}

/** Where a page starts: `offset` items before it and, when known, the key to read after. */
export interface PagePosition extends PageRequest {
  startAfter?: ItemKey;
}

/** The spec's wrapper with the next page's cursor. */
export interface CursorPage<T> extends Page<T> {
  pagination: Page<T>['pagination'] & { nextCursor: string | null };
}

interface CursorPayload {
  /** Items before the page. */
  o: number;
  k?: ItemKey;
}

const base64url = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url');

function scopeText(scope: PageScope): string {
  const parameters = Object.entries(scope.parameters ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(['asset-registry page cursor v1', scope.tenantId, scope.list, parameters]);
}

async function signature(scope: PageScope, encodedPayload: string): Promise<Buffer> {
  return createHmac('sha256', await cursorKey())
    .update(`${scopeText(scope)}\n${encodedPayload}`)
    .digest();
}

const invalidCursor = () =>
  new ValidationError([
    {
      field: 'cursor',
      code: 'FORMAT_INVALID',
      message:
        'cursor is not a cursor of this list: use pagination.nextCursor as it was returned, with the same filters and sort',
    },
  ]);

/**
 * Signs the position of the next page of the list `scope`.
 *
 * @example
 * await signCursor({ tenantId, list: 'objects', parameters: { sort } }, { offset: 20, limit: 20 })
 */
async function signCursor(scope: PageScope, position: PagePosition): Promise<string> {
  const payload: CursorPayload = {
    o: position.offset,
    ...(position.startAfter ? { k: position.startAfter } : {}),
  };
  const encodedPayload = base64url(JSON.stringify(payload));
  return `${encodedPayload}.${base64url(await signature(scope, encodedPayload))}`;
}

async function verifyCursor(cursor: string, scope: PageScope): Promise<CursorPayload> {
  const [encodedPayload, encodedSignature, ...rest] = cursor.split('.');
  if (!encodedPayload || !encodedSignature || rest.length > 0) throw invalidCursor();
  const given = Buffer.from(encodedSignature, 'base64url');
  const expected = await signature(scope, encodedPayload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  // Signed by us, so well formed; checked anyway so that a key change can never cause a 500.
  const payload: unknown = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8'));
  const { o, k } = (payload ?? {}) as Partial<CursorPayload>;
  if (
    !Number.isSafeInteger(o) ||
    (o as number) < 0 ||
    (k !== undefined && (typeof k !== 'object' || k === null))
  )
    throw invalidCursor();
  return { o: o as number, k };
}

/**
 * Where the asked page starts: at `offset` (the spec's way), or where `cursor` says. A cursor
 * with an `offset` other than 0 is refused: the cursor holds the position.
 */
export async function pagePositionOf(
  query: PageRequest & { cursor?: string },
  scope: PageScope,
): Promise<PagePosition> {
  if (query.cursor === undefined) return { limit: query.limit, offset: query.offset };
  if (query.offset !== 0) {
    throw new ValidationError([
      {
        field: 'offset',
        code: 'RANGE_INVALID',
        message: 'offset must be 0 or left out when a cursor is given: the cursor holds the position',
      },
    ]);
  }
  const payload = await verifyCursor(query.cursor, scope);
  return { limit: query.limit, offset: payload.o, startAfter: payload.k };
}

/**
 * Wraps one page as the spec does and adds the cursor of the next one (null on the last page).
 * `lastKey` is where the index read stopped; without it the next cursor holds the offset only.
 */
export async function toCursorPage<T>(
  data: T[],
  position: PageRequest,
  total: number,
  scope: PageScope,
  lastKey?: ItemKey,
): Promise<CursorPage<T>> {
  const page = toPage(data, position, total);
  const nextCursor = page.pagination.hasNext
    ? await signCursor(scope, {
        limit: position.limit,
        offset: position.offset + data.length,
        startAfter: data.length > 0 ? lastKey : undefined,
      })
    : null;
  return { data: page.data, pagination: { ...page.pagination, nextCursor } };
}
