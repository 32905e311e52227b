/** Previous / next for a spec 4.1 page (`limit`, `offset`, `total`, `hasNext`, `hasPrevious`). */
import type { PageInfo } from '../api-client';

export function Pagination({
  page,
  onOffset,
  label,
}: {
  page: PageInfo;
  onOffset: (offset: number) => void;
  label: string;
}) {
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = Math.min(page.offset + page.limit, page.total);
  return (
    <nav class="pagination" aria-label={`${label} pages`}>
      <button
        type="button"
        disabled={!page.hasPrevious}
        onClick={() => onOffset(Math.max(0, page.offset - page.limit))}
      >
        Previous page
      </button>
      <span aria-live="polite">
        {first}–{last} of {page.total}
      </span>
      <button type="button" disabled={!page.hasNext} onClick={() => onOffset(page.offset + page.limit)}>
        Next page
      </button>
    </nav>
  );
}
