/**
 * One page of a list, the same way on every list of the console: the error (and a way back to
 * page 1 when the API refused the page's cursor), the empty state, the rows as a table (or as
 * the caller lays them out), and previous / next. While the next page loads, the page shown stays
 * (marked busy), so that the controls do not jump.
 */
import type { ComponentChildren } from 'preact';
import type { ListResponse } from '../api-client';
import type { RequestState } from '../use-request';
import { ErrorNotice } from './error-notice';
import { CursorRefused, type ListPages, Pagination } from './pagination';

interface Column<Item> {
  header: string;
  cell: (item: Item) => ComponentChildren;
  /** The cell's class (`mono` for hashes and ids). */
  class?: string;
}

type Layout<Item> =
  | {
      columns: Column<Item>[];
      rowKey: (item: Item) => string | number;
      /**
       * Where a click anywhere on the row leads. A cell still holds a link to the same place,
       * for the keyboard and for screen readers: the row's click is the mouse's shortcut.
       */
      rowHref?: (item: Item) => string;
    }
  /** Rows laid out by the caller (cards, a timeline) instead of a table. */
  | { render: (items: Item[]) => ComponentChildren };

type PagedListProps<PageResponse extends ListResponse> = Layout<PageResponse['data'][number]> & {
  /** What the list holds (`Objects`): the table's caption and the pages' label. */
  label: string;
  /** The page's request; `data` undefined shows nothing (for example a view that cannot ask yet). */
  request: RequestState<PageResponse | undefined>;
  /** What an empty list says (`No object matches.`). */
  empty: string;
  /** The way to the next and previous pages (the route's, or `useCursorStack`'s). */
  pages: ListPages;
};

/** Follows a row's link, unless the click selected text or was on a control of its own. */
function followRow(href: string | undefined): void {
  if (!href || (getSelection()?.toString() ?? '') !== '') return;
  location.hash = href;
}

export function PagedList<PageResponse extends ListResponse>(props: PagedListProps<PageResponse>) {
  const { request, label, pages } = props;
  const response = request.data;
  const items = (response?.data ?? []) as PageResponse['data'][number][];
  const page = response?.pagination;
  return (
    <>
      <ErrorNotice error={request.error} />
      {pages.firstPageHref !== undefined && (
        <CursorRefused error={request.error} firstPageHref={pages.firstPageHref} />
      )}
      {page && items.length === 0 && <p>{props.empty}</p>}
      {page &&
        items.length > 0 &&
        ('render' in props ? (
          props.render(items)
        ) : (
          <table aria-busy={request.loading || undefined}>
            <caption class="visually-hidden">{label}</caption>
            <thead>
              <tr>
                {props.columns.map((column) => (
                  <th key={column.header} scope="col">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr
                  key={props.rowKey(item)}
                  class={props.rowHref ? 'row-link' : undefined}
                  onClick={props.rowHref ? () => followRow(props.rowHref?.(item)) : undefined}
                >
                  {props.columns.map((column) => (
                    <td key={column.header} class={column.class}>
                      {column.cell(item)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {page && (items.length > 0 || page.hasPrevious) && (
        <Pagination
          label={label}
          page={page}
          shown={items.length}
          onNext={pages.goToNext}
          onPrevious={pages.goToPrevious}
        />
      )}
    </>
  );
}
