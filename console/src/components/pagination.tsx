/**
 * Previous / next for a list page (spec 4.1's `limit`, `offset`, `total`, `hasNext`,
 * `hasPrevious`, and the extension's `nextCursor`). "Next page" follows `nextCursor`; "Previous
 * page" goes back through the cursors the visitor came through. The range shown is the API's
 * own `offset`, which it returns for a page reached by cursor as well.
 */
import { useState } from 'preact/hooks';
import { ApiError, type PageInfo } from '../api-client';

/** Where a list is: the next and previous page (and page 1, when a cursor is refused). */
export interface ListPages {
  /** Goes to the next page, by the cursor the API returned with this page. */
  goToNext: (nextCursor: string) => void;
  /** Goes back to the page before (`ListRoute` by the cursors the visitor came through). */
  goToPrevious: (page: PageInfo) => void;
  /** The first page with the same filters, when the route holds the page. */
  firstPageHref?: string;
}

export function Pagination({
  page,
  shown,
  onNext,
  onPrevious,
  label,
}: {
  page: PageInfo;
  /** Items on this page. */
  shown: number;
  onNext: (nextCursor: string) => void;
  onPrevious: (page: PageInfo) => void;
  label: string;
}) {
  const first = shown === 0 ? 0 : page.offset + 1;
  const last = page.offset + shown;
  const nextCursor = page.hasNext ? page.nextCursor : undefined;
  return (
    <nav class="pagination" aria-label={`${label} pages`}>
      <button type="button" disabled={!page.hasPrevious} onClick={() => onPrevious(page)}>
        Previous page
      </button>
      <span aria-live="polite">
        {first}–{last}
        {/* The activity does not count its total (it would read the whole range). */}
        {page.total === null ? '' : ` of ${page.total}`}
      </span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}

/**
 * The page of a list kept in a view's own state (not in the route): the cursors it came
 * through, the last one being the page shown (page 1: none).
 */
export function useCursorStack(): ListPages & { cursor?: string } {
  const [stack, setStack] = useState<string[]>([]);
  return {
    cursor: stack.at(-1),
    goToNext: (cursor) => setStack((cursors) => [...cursors, cursor]),
    goToPrevious: () => setStack((cursors) => cursors.slice(0, -1)),
  };
}

/**
 * A way back to page 1 when the API refused the page's cursor (a link kept from before the
 * stack's cursor key changed, or another tenant's link): 400 `VALIDATION_ERROR` on `cursor`.
 */
export function CursorRefused({ error, firstPageHref }: { error: unknown; firstPageHref: string }) {
  const refused =
    error instanceof ApiError &&
    error.status === 400 &&
    error.validationErrors.some((issue) => issue.field === 'cursor');
  return refused ? (
    <p>
      This page's cursor is no longer valid. <a href={firstPageHref}>Start again from the first page</a>
    </p>
  ) : null;
}
