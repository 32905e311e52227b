/** Objects (spec 4.1): every filter, sort and page of the API; search by externalId. */
import type { Page } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { ACTIVE_INACTIVE_ALL, CREATED_NAME_SORTS, FilterForm } from '../components/filter-form';
import { CursorRefused, Pagination } from '../components/pagination';
import type { Route } from '../router';
import { routeHref } from '../router';
import { useRequest } from '../use-request';
import { listRoute } from './list-route';
import type { RegistryObject } from './object-types';

export function ObjectsView({ route }: { route: Route }) {
  const client = useClient();
  const list = listRoute(route, {
    status: 'active',
    name: '',
    externalId: '',
    owner: '',
    categoryId: '',
    subcategoryId: '',
    sort: 'createdAt:desc',
  });
  const query = list.key;
  const objects = useRequest(() => client.get<Page<RegistryObject>>('v2/objects', list.query(20)), [query]);
  return (
    <main id="main">
      <h1>Objects</h1>
      <FilterForm
        key={query}
        values={list.values}
        onApply={list.applyFilters}
        fields={[
          { name: 'externalId', label: 'External id (exact)', kind: 'text' },
          { name: 'name', label: 'Name contains', kind: 'text' },
          { name: 'owner', label: 'Owner contains', kind: 'text' },
          { name: 'status', label: 'Status', kind: 'select', options: ACTIVE_INACTIVE_ALL },
          { name: 'sort', label: 'Sort', kind: 'select', options: CREATED_NAME_SORTS },
          { name: 'categoryId', label: 'Category id', kind: 'text' },
          { name: 'subcategoryId', label: 'Subcategory id', kind: 'text' },
        ]}
      />
      <ErrorNotice error={objects.error} />
      <CursorRefused error={objects.error} firstPageHref={list.firstPageHref} />
      {objects.data && (
        <>
          <table>
            <caption class="visually-hidden">Objects</caption>
            <thead>
              <tr>
                <th scope="col">External id</th>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Status</th>
                <th scope="col">Events</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {objects.data.data.map((object) => (
                <tr key={object.id}>
                  <td>
                    <a href={routeHref(['objects', object.id])}>{object.externalId}</a>
                  </td>
                  <td>{object.name}</td>
                  <td>{object.owner}</td>
                  <td>{object.status}</td>
                  <td>{object.blockchain.eventCount}</td>
                  <td>{object.createdAt}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {objects.data.data.length === 0 && <p>No object matches.</p>}
          <Pagination
            label="Objects"
            page={objects.data.pagination}
            onNext={list.goToNext}
            onPrevious={list.goToPrevious}
          />
        </>
      )}
    </main>
  );
}
