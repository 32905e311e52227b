/**
 * The spec's pagination: `limit` (1-100, default 20) and `offset` (>= 0, default 0) in, and the
 * wrapper `{ data, pagination: { limit, offset, total, hasNext, hasPrevious } }` out.
 */
import { defaulted, integer, optional, string } from './schema.js';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** Our cursors are about 100-400 characters; anything longer is not one of ours. */
const CURSOR_MAX_LENGTH = 2048;

/**
 * The `limit`, `offset` and `cursor` (extension, see `page-cursor.ts`) query fields, for
 * spreading into a list operation's query schema.
 */
export const pageQueryFields = (defaultLimit = PAGE_SIZE_DEFAULT) => ({
  limit: defaulted(integer({ min: 1, max: PAGE_SIZE_MAX, fromQueryString: true }), defaultLimit, 'page size'),
  offset: defaulted(integer({ min: 0, fromQueryString: true }), 0, 'items to skip'),
  cursor: optional(
    string({ min: 1, max: CURSOR_MAX_LENGTH }),
    "(extension) the previous response's pagination.nextCursor, as it was: reads the next page at the cost of page 1, whatever its depth. Only with the same filters and sort, and no offset",
  ),
});

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  data: T[];
  pagination: {
    limit: number;
    offset: number;
    total: number;
    hasNext: boolean;
    hasPrevious: boolean;
  };
}

/**
 * Wraps one page of items.
 *
 * @example
 * toPage(['a', 'b'], { limit: 2, offset: 0 }, 5).pagination.hasNext // true
 */
export function toPage<T>(data: T[], request: PageRequest, total: number): Page<T> {
  return {
    data,
    pagination: {
      limit: request.limit,
      offset: request.offset,
      total,
      hasNext: request.offset + data.length < total,
      // "Items exist before this page": any item at all when the page does not start at 0.
      hasPrevious: request.offset > 0 && total > 0,
    },
  };
}
