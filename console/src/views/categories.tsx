/**
 * Categories (spec 4.5) with their subcategories: a category leads to its page, a subcategory to
 * its objects (every status), when the key may read objects.
 */

import { useClient } from '../components/client-context';
import { FilterForm, NAME_FILTER, SORT_FILTER, STATUS_FILTER } from '../components/filter-form';
import { PagedList } from '../components/paged-list';
import type { Route } from '../router';
import { routeHref } from '../router';
import { can } from '../session';
import { useRoutedList } from './list-route';

export function CategoriesView({ route }: { route: Route }) {
  const { list, page: categories } = useRoutedList(route, '/v2/categories', {
    status: 'active',
    name: '',
    sort: 'createdAt:desc',
  });
  const readsObjects = can(useClient().session, 'objects:read');
  return (
    <main id="main">
      <h1>Categories</h1>
      <FilterForm list={list} fields={[NAME_FILTER, STATUS_FILTER, SORT_FILTER]} />
      <PagedList
        label="Categories"
        request={categories}
        empty="No category matches."
        pages={list}
        render={(items) => (
          <ul class="cards">
            {items.map((category) => (
              <li key={category.id} class="card">
                <h2>
                  <a href={routeHref(['categories', category.id])}>{category.name}</a>{' '}
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
                      {readsObjects ? (
                        <a
                          href={routeHref(['objects'], {
                            categoryId: category.id,
                            subcategoryId: subcategory.id,
                          })}
                        >
                          {subcategory.name}
                        </a>
                      ) : (
                        subcategory.name
                      )}{' '}
                      <span class="badge">{subcategory.status}</span> {subcategory.statistics.objectCount}{' '}
                      objects
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      />
    </main>
  );
}
