/** Categories (spec 4.5) with their subcategories; a subcategory leads to its objects. */
import type { Page } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { ACTIVE_INACTIVE_ALL, CREATED_NAME_SORTS, FilterForm } from '../components/filter-form';
import { CursorRefused, Pagination } from '../components/pagination';
import type { Route } from '../router';
import { routeHref } from '../router';
import { useRequest } from '../use-request';
import { listRoute } from './list-route';

interface Subcategory {
  id: string;
  name: string;
  status: string;
  statistics: { objectCount: number };
}
interface Category {
  id: string;
  name: string;
  description: string;
  status: string;
  statistics: { subcategoryCount: number; objectCount: number };
  subcategories: Subcategory[];
}

export function CategoriesView({ route }: { route: Route }) {
  const client = useClient();
  const list = listRoute(route, { status: 'active', name: '', sort: 'createdAt:desc' });
  const query = list.key;
  const categories = useRequest(() => client.get<Page<Category>>('v2/categories', list.query(20)), [query]);
  return (
    <main id="main">
      <h1>Categories</h1>
      <FilterForm
        key={query}
        values={list.values}
        onApply={list.applyFilters}
        fields={[
          { name: 'name', label: 'Name contains', kind: 'text' },
          { name: 'status', label: 'Status', kind: 'select', options: ACTIVE_INACTIVE_ALL },
          { name: 'sort', label: 'Sort', kind: 'select', options: CREATED_NAME_SORTS },
        ]}
      />
      <ErrorNotice error={categories.error} />
      <CursorRefused error={categories.error} firstPageHref={list.firstPageHref} />
      {categories.data && (
        <>
          {categories.data.data.length === 0 && <p>No category matches.</p>}
          <ul class="cards">
            {categories.data.data.map((category) => (
              <li key={category.id} class="card">
                <h2>
                  <a href={routeHref(['objects'], { categoryId: category.id, status: 'all' })}>
                    {category.name}
                  </a>{' '}
                  <span class="badge">{category.status}</span>
                </h2>
                {category.description && <p>{category.description}</p>}
                <p class="muted">
                  {category.statistics.subcategoryCount} subcategories, {category.statistics.objectCount}{' '}
                  objects
                </p>
                <ul aria-label={`Subcategories of ${category.name}`}>
                  {category.subcategories.map((subcategory) => (
                    <li key={subcategory.id}>
                      <a
                        href={routeHref(['objects'], {
                          categoryId: category.id,
                          subcategoryId: subcategory.id,
                          status: 'all',
                        })}
                      >
                        {subcategory.name}
                      </a>{' '}
                      <span class="badge">{subcategory.status}</span> {subcategory.statistics.objectCount}{' '}
                      objects
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <Pagination
            label="Categories"
            page={categories.data.pagination}
            onNext={list.goToNext}
            onPrevious={list.goToPrevious}
          />
        </>
      )}
    </main>
  );
}
