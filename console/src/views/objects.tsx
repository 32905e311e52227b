/**
 * Objects (spec 4.1): every status unless the user filters; pickers for the category, its
 * subcategory and the status (names, not ids, when the key may read categories); the whole row
 * opens the object; the filters live in the route, so that back and a bookmark keep them; an
 * "as of" date (the route's `asOf`) shows the matching objects as they stood then
 * (`objects-as-of.tsx`), and the export saves them as a file; both read the as-of export, part
 * of the audit trail, which a viewer may not read. "New object" shows with `objects:write`.
 */
import { Breadcrumb, type Crumb } from '../components/breadcrumb';
import { type Catalogue, useCatalogue } from '../components/catalogue';
import { useClient } from '../components/client-context';
import { type FilterField, FilterForm, NAME_FILTER, SORT_FILTER } from '../components/filter-form';
import { PagedList } from '../components/paged-list';
import type { Route } from '../router';
import { navigate, routeHref } from '../router';
import { can, canReadAuditTrail } from '../session';
import { ExportAsOf } from './export-as-of';
import { listRoute, useRoutedList } from './list-route';
import { ObjectCreate } from './object-create';
import { AsOfForm, ObjectsAsOfList } from './objects-as-of';

/** The objects list as last shown (its filters and page), for the object page's way back. */
let lastListHref = routeHref(['objects']);

/** The href of the objects list as the user last left it. */
export const objectsListHref = (): string => lastListHref;

const OBJECT_STATUS_FILTER: FilterField = {
  name: 'status',
  label: 'Status',
  kind: 'select',
  options: [
    { value: 'all', label: 'Every status' },
    { value: 'active', label: 'Active' },
    { value: 'inactive', label: 'Not active (stolen)' },
  ],
};

/** The category and subcategory pickers, from the catalogue. */
function pickers(catalogue: Catalogue): FilterField[] {
  return [
    {
      name: 'categoryId',
      label: 'Category',
      kind: 'select',
      options: [
        { value: '', label: 'Every category' },
        ...catalogue.categories.map((category) => ({ value: category.id, label: category.name })),
      ],
      resets: ['subcategoryId'],
    },
    {
      name: 'subcategoryId',
      label: 'Subcategory',
      kind: 'select',
      options: (draft) => [
        { value: '', label: 'Every subcategory' },
        ...(
          catalogue.categories.find((category) => category.id === draft.categoryId)?.subcategories ?? []
        ).map((subcategory) => ({ value: subcategory.id, label: subcategory.name })),
      ],
    },
  ];
}

const OBJECT_FILTERS = {
  status: 'all',
  name: '',
  externalId: '',
  owner: '',
  categoryId: '',
  subcategoryId: '',
  sort: 'createdAt:desc',
};

export function ObjectsView({ route }: { route: Route }) {
  // The as-of date is kept among the list's values, so that applying filters keeps it.
  const list = listRoute(route, OBJECT_FILTERS);
  const asOf = list.values.asOf ?? '';
  const catalogue = useCatalogue();
  const { session } = useClient();
  // The registry as of a date is read from the as-of export: the audit trail.
  const shown = canReadAuditTrail(session) ? asOf : '';
  lastListHref = routeHref(route.segments, Object.fromEntries(route.params));
  const { categoryId, subcategoryId } = list.values;
  const trail: Crumb[] = [];
  if (catalogue && categoryId) {
    trail.push({ label: 'Categories', href: routeHref(['categories']) });
    trail.push({
      label: catalogue.categoryName(categoryId) ?? categoryId,
      href: routeHref(['categories', categoryId]),
    });
    if (subcategoryId) trail.push({ label: catalogue.subcategoryName(subcategoryId) ?? subcategoryId });
  }
  return (
    <main id="main">
      {trail.length > 0 && <Breadcrumb trail={[...trail, { label: 'Objects' }]} />}
      <h1>Objects</h1>
      {catalogue && can(session, 'objects:write') && <ObjectCreate catalogue={catalogue} />}
      <FilterForm
        // The pickers join the form when the catalogue arrives; what the user typed stays.
        list={list}
        fields={[
          { name: 'externalId', label: 'External id (exact)', kind: 'text' },
          NAME_FILTER,
          { name: 'owner', label: 'Owner contains', kind: 'text' },
          ...(catalogue ? pickers(catalogue) : []),
          OBJECT_STATUS_FILTER,
          SORT_FILTER,
        ]}
      />
      {canReadAuditTrail(session) && (
        <section aria-labelledby="as-of-title" class="no-print">
          <h2 id="as-of-title">The registry as of a date</h2>
          <AsOfForm
            key={asOf}
            asOf={asOf}
            onChange={(next) => navigate(route.segments, { ...list.values, asOf: next || undefined })}
          />
          <ExportAsOf filters={list.values} asOf={asOf} />
        </section>
      )}
      {shown ? (
        <ObjectsAsOfList route={route} list={list} asOf={shown} />
      ) : (
        <LiveObjects route={route} catalogue={catalogue} />
      )}
    </main>
  );
}

/** The objects as they are now, a page from the API. */
function LiveObjects({ route, catalogue }: { route: Route; catalogue?: Catalogue }) {
  const { list, page: objects } = useRoutedList(route, '/v2/objects', OBJECT_FILTERS);
  return (
    <PagedList
      label="Objects"
      request={objects}
      empty="No object matches."
      pages={list}
      rowKey={(object) => object.id}
      rowHref={(object) => routeHref(['objects', object.id])}
      columns={[
        {
          header: 'External id',
          cell: (object) => <a href={routeHref(['objects', object.id])}>{object.externalId}</a>,
        },
        { header: 'Name', cell: (object) => object.name },
        ...(catalogue
          ? [
              {
                header: 'Category',
                cell: (object: { categoryId: string; subcategoryId: string }) =>
                  `${catalogue.categoryName(object.categoryId) ?? '—'} › ${catalogue.subcategoryName(object.subcategoryId) ?? '—'}`,
              },
            ]
          : []),
        { header: 'Owner', cell: (object) => object.owner },
        { header: 'Status', cell: (object) => object.status },
        { header: 'Events', cell: (object) => object.blockchain.eventCount },
        { header: 'Created', cell: (object) => object.createdAt },
      ]}
    />
  );
}
