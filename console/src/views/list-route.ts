/** A list view's filters and offset, read from and written to the route's query. */
import { navigate, type Route } from '../router';

export interface ListRoute {
  values: Record<string, string>;
  offset: number;
  /** Applies new filters (back to the first page). */
  applyFilters: (values: Record<string, string>) => void;
  goToOffset: (offset: number) => void;
}

export function listRoute(route: Route, defaults: Record<string, string>): ListRoute {
  const values = { ...defaults };
  for (const [name, value] of route.params) if (name !== 'offset') values[name] = value;
  const offset = Number(route.params.get('offset') ?? 0) || 0;
  return {
    values,
    offset,
    applyFilters: (next) => navigate(route.segments, { ...next }),
    goToOffset: (next) => navigate(route.segments, { ...values, offset: next || undefined }),
  };
}
