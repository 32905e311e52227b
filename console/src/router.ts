/**
 * Hash routes (`#/objects/<id>?tab=...`): the static host needs no rewrite rules, and a route
 * never carries the key (only ids, filters and the page's cursor).
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** Path segments after `#/`, e.g. `['objects', '<id>']`. */
  segments: string[];
  params: URLSearchParams;
}

function currentRoute(): Route {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return {
    segments: path.split('/').filter(Boolean).map(decodeURIComponent),
    params: new URLSearchParams(query),
  };
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** The `href` of a route: path segments and query values (empty values left out). */
export function routeHref(
  segments: string[],
  params: Record<string, string | number | undefined> = {},
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return `#/${segments.map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`;
}

/** Goes to a route (adds a history entry). */
export function navigate(segments: string[], params: Record<string, string | number | undefined> = {}): void {
  location.hash = routeHref(segments, params);
}

let flashMessage = '';

/** A message for the next view to show once (e.g. "deleted" after leaving a deleted item's page). */
export function setFlash(message: string): void {
  flashMessage = message;
}

/** The pending message, if any; taking it clears it. */
export function takeFlash(): string {
  const message = flashMessage;
  flashMessage = '';
  return message;
}
