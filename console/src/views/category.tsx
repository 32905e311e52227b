/** One category: its subcategories by name, each leading to its objects (every status). */
import { dataOf } from '../api-client';
import { Breadcrumb } from '../components/breadcrumb';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { navigate, routeHref } from '../router';
import { can } from '../session';
import { useRequest } from '../use-request';

export function CategoryView({ categoryId }: { categoryId: string }) {
  const client = useClient();
  const category = useRequest(
    () => dataOf(client.api.GET('/v2/categories/{categoryId}', { params: { path: { categoryId } } })),
    [categoryId],
  );
  const shown = category.data;
  const readsObjects = can(client.session, 'objects:read');
  const objectsOf = (subcategoryId?: string) => ['objects', { categoryId, subcategoryId }] as const;
  return (
    <main id="main">
      <Breadcrumb
        trail={[{ label: 'Categories', href: routeHref(['categories']) }, { label: shown?.name ?? '…' }]}
      />
      <ErrorNotice error={category.error} />
      {shown && (
        <>
          <h1>{shown.name}</h1>
          {shown.description && <p>{shown.description}</p>}
          <p class="muted">
            {shown.status} · {shown.statistics.subcategoryCount} subcategories ·{' '}
            {shown.statistics.objectCount} objects
            {readsObjects && (
              <>
                {' · '}
                <a href={routeHref(['objects'], { categoryId })}>All objects of {shown.name}</a>
              </>
            )}
          </p>
          <h2>Subcategories</h2>
          {shown.subcategories.length === 0 ? (
            <p>No subcategories.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Subcategories of {shown.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Objects</th>
                </tr>
              </thead>
              <tbody>
                {shown.subcategories.map((subcategory) => {
                  const [segment, params] = objectsOf(subcategory.id);
                  return (
                    <tr
                      key={subcategory.id}
                      class={readsObjects ? 'row-link' : undefined}
                      onClick={readsObjects ? () => navigate([segment], params) : undefined}
                    >
                      <td>
                        {readsObjects ? (
                          <a href={routeHref([segment], params)}>{subcategory.name}</a>
                        ) : (
                          subcategory.name
                        )}
                      </td>
                      <td>{subcategory.status}</td>
                      <td>{subcategory.statistics.objectCount}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </main>
  );
}
