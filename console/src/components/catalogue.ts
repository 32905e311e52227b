/**
 * The company's categories and their subcategories by id, so that views name what the API gives
 * as ids (an object's category, a changed `subcategoryId`) and fill the list's pickers. Read
 * once per key or person (`GET /v2/categories`, every status, page by page), and only when the key has
 * `categories:read`: without it, ids stay ids.
 */
import { dataOf, type Schemas } from '../api-client';
import { can, credentialSecret } from '../session';
import { useRequest } from '../use-request';
import { useClient } from './client-context';

export interface Catalogue {
  categories: Schemas['Category'][];
  /** A category's name by id. */
  categoryName: (id: string | null | undefined) => string | undefined;
  /** A subcategory's name by id (any category). */
  subcategoryName: (id: string | null | undefined) => string | undefined;
}

/** Pages read at most: 100 categories each. */
const MAX_PAGES = 20;

const loaded = new Map<string, Promise<Catalogue>>();

function catalogueOf(categories: Schemas['Category'][]): Catalogue {
  const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
  const subcategoryNames = new Map(
    categories.flatMap((category) => category.subcategories.map((sub) => [sub.id, sub.name] as const)),
  );
  return {
    categories,
    categoryName: (id) => (id ? categoryNames.get(id) : undefined),
    subcategoryName: (id) => (id ? subcategoryNames.get(id) : undefined),
  };
}

/** The catalogue, or undefined while it loads or when the key may not read categories. */
export function useCatalogue(): Catalogue | undefined {
  const client = useClient();
  const allowed = can(client.session, 'categories:read');
  const caller = credentialSecret(client.session.credential);
  const request = useRequest(async () => {
    if (!allowed) return undefined;
    const cached = loaded.get(caller);
    if (cached) return cached;
    const loading = (async () => {
      const categories: Schemas['Category'][] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await dataOf(
          client.api.GET('/v2/categories', { params: { query: { status: 'all', limit: 100, cursor } } }),
        );
        categories.push(...response.data);
        cursor = response.pagination.hasNext ? (response.pagination.nextCursor ?? undefined) : undefined;
        if (!cursor) break;
      }
      return catalogueOf(categories);
    })();
    loaded.set(caller, loading);
    loading.catch(() => loaded.delete(caller));
    return loading;
  }, [caller, allowed]);
  return request.data;
}
