/** Objects (spec 4.1): every filter, sort and page of the API; search by externalId. */
import { FilterForm, NAME_FILTER, SORT_FILTER, STATUS_FILTER } from '../components/filter-form';
import { PagedList } from '../components/paged-list';
import type { Route } from '../router';
import { routeHref } from '../router';
import { useRoutedList } from './list-route';

export function ObjectsView({ route }: { route: Route }) {
  const { list, page: objects } = useRoutedList(route, '/v2/objects', {
    status: 'active',
    name: '',
    externalId: '',
    owner: '',
    categoryId: '',
    subcategoryId: '',
    sort: 'createdAt:desc',
  });
  return (
    <main id="main">
      <h1>Objects</h1>
      <FilterForm
        list={list}
        fields={[
          { name: 'externalId', label: 'External id (exact)', kind: 'text' },
          NAME_FILTER,
          { name: 'owner', label: 'Owner contains', kind: 'text' },
          STATUS_FILTER,
          SORT_FILTER,
          { name: 'categoryId', label: 'Category id', kind: 'text' },
          { name: 'subcategoryId', label: 'Subcategory id', kind: 'text' },
        ]}
      />
      <PagedList
        label="Objects"
        request={objects}
        empty="No object matches."
        pages={list}
        rowKey={(object) => object.id}
        columns={[
          {
            header: 'External id',
            cell: (object) => <a href={routeHref(['objects', object.id])}>{object.externalId}</a>,
          },
          { header: 'Name', cell: (object) => object.name },
          { header: 'Owner', cell: (object) => object.owner },
          { header: 'Status', cell: (object) => object.status },
          { header: 'Events', cell: (object) => object.blockchain.eventCount },
          { header: 'Created', cell: (object) => object.createdAt },
        ]}
      />
    </main>
  );
}
