/**
 * A list view's filters and page, read from and written to the route's query. Pages are walked
 * by cursor (`pagination.nextCursor`; `docs/api-decisions.md`, "Everywhere"): a page reached by cursor costs
 * the API what page 1 costs, where `offset` reads every item it skips.
 */
import type { paths } from '../../../client/openapi-types';
import { dataOf, type PageInfo, type QueryOf } from '../api-client';
import { useClient } from '../components/client-context';
import type { ListPages } from '../components/pagination';
import { navigate, type Route, routeHref } from '../router';
import { type RequestState, useRequest } from '../use-request';

/** Rows a list page asks for. */
const PAGE_SIZE = 20;

/** Where a page starts: page 1 (neither), a cursor the API returned, or an offset. */
interface PagePlace {
  cursor?: string;
  offset?: number;
}

/**
 * The page each cursor was reached from, for "Previous": a stack of the cursors the visitor came
 * through, kept as links so that the browser's own back and forward keep it right. In memory
 * only; after a reload the console no longer knows them (see `goToPrevious`).
 */
const cameFrom = new Map<string, PagePlace>();

/** The route parameters that place the page rather than filter the list. */
const PLACE_PARAMETERS = new Set(['cursor', 'offset']);

export interface ListRoute extends ListPages {
  values: Record<string, string>;
  /** The cursor of the page shown (none on page 1). */
  cursor?: string;
  /** The offset of the page shown, when it was reached by offset (an older link, or see `goToPrevious`). */
  offset?: number;
  /** What tells this page from another: filters and place (a dependency of the request). */
  key: string;
  /**
   * The query for the API: filters (empty ones left out), and the cursor or the offset. Typed as
   * the list's query in the document (`QueryOf`); the values are the route's text, which the API
   * checks as it checks any caller's.
   */
  query: <Query>(limit: number) => Query;
  /** The first page with the same filters. */
  firstPageHref: string;
  /** Applies new filters (back to the first page). */
  applyFilters: (values: Record<string, string>) => void;
  /**
   * Goes back to the page this one was reached from, by its cursor (page 1: none). When that is
   * not known (a reload, or a link), goes to the page before by offset, the spec's way.
   */
  goToPrevious: (page: PageInfo) => void;
}

export function listRoute(route: Route, defaults: Record<string, string>): ListRoute {
  const values = { ...defaults };
  for (const [name, value] of route.params) if (!PLACE_PARAMETERS.has(name)) values[name] = value;
  const cursor = route.params.get('cursor') || undefined;
  const offset = cursor ? undefined : Number(route.params.get('offset') ?? 0) || undefined;
  const goTo = (place: PagePlace) => navigate(route.segments, { ...values, ...place });
  return {
    values,
    cursor,
    offset,
    key: JSON.stringify([values, cursor, offset]),
    query: <Query>(limit: number) => {
      const filters = Object.entries(values).filter(([, value]) => value !== '');
      return { ...Object.fromEntries(filters), cursor, offset, limit } as Query;
    },
    firstPageHref: routeHref(route.segments, values),
    applyFilters: (next) => navigate(route.segments, { ...next }),
    goToNext: (nextCursor) => {
      cameFrom.set(nextCursor, { cursor, offset });
      goTo({ cursor: nextCursor });
    },
    goToPrevious: (page) => {
      const previous = cursor === undefined ? undefined : cameFrom.get(cursor);
      const offsetBefore = Math.max(0, page.offset - page.limit);
      goTo(previous ?? { offset: offsetBefore || undefined });
    },
  };
}

/** The lists whose filters and page live in the route. */
type RoutedListPath = '/v2/objects' | '/v2/categories' | '/v2/wallets' | '/v2/events';
type ListResponseOf<Path extends RoutedListPath> =
  paths[Path]['get']['responses'][200]['content']['application/json'];

/**
 * A list page of `path` whose filters (`defaults` when the route has none) and place live in
 * the route: the route's list and the page's request.
 *
 * @example
 * const { list, page } = useRoutedList(route, '/v2/wallets', { status: 'active', sort: 'createdAt:desc' });
 */
export function useRoutedList<Path extends RoutedListPath>(
  route: Route,
  path: Path,
  defaults: { [Name in keyof QueryOf<Path>]?: string },
): { list: ListRoute; page: RequestState<ListResponseOf<Path>> } {
  const client = useClient();
  const list = listRoute(route, defaults as Record<string, string>);
  const page = useRequest(
    () =>
      // The query is the route's text, checked by the API as any caller's is.
      dataOf(
        client.api.GET(path as RoutedListPath, { params: { query: list.query<never>(PAGE_SIZE) } }),
      ) as Promise<ListResponseOf<Path>>,
    [path, list.key],
  );
  return { list, page };
}
